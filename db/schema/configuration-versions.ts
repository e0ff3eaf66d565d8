import { integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";

/**
 * The business configuration as versioned data (lib/payments/corridors/versions.ts): corridors and their
 * pricing, one whole document per version. A row is written once, when a second admin approves
 * the proposal that carries it, and never changed (a trigger refuses UPDATE and DELETE): a change
 * is a new version. The version in force at an instant is the highest whose effective time has
 * come. Version 1 is the shipped seed (data/corridors/v2.json), inserted by the table's migration.
 */
export const configurationVersions = pgTable("configuration_versions", {
  /** 1, 2, 3...: what quotes record (quotes.corridor_data_version) and the console shows. */
  version: integer("version").primaryKey(),
  /** From this instant on the version prices new quotes (unless a higher version is in force). */
  effectiveAt: tstz("effective_at").notNull(),
  /** The document as proposed, validated by lib/payments/corridors/schema.ts (the export's shape). */
  document: jsonb("document").$type<Record<string, unknown>>().notNull(),
  note: text("note").notNull(),
  proposedByEmail: text("proposed_by_email").notNull(),
  approvedByEmail: text("approved_by_email").notNull(),
  /** The dual-control proposal approved into this version (none for the seed). */
  proposalId: text("proposal_id"),
  createdAt: createdAt(),
});
