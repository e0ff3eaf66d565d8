import { integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/**
 * One imported publication of a sanctions list (lib/compliance/screening/list-store.ts). Keyed by the files'
 * content hash, so importing the same files twice is a no-op; the newest version of a list is the
 * one screening uses.
 */
export const sanctionsListVersions = pgTable(
  "sanctions_list_versions",
  {
    id: text("id").primaryKey(),
    /** The list's key ("ofac-sdn"). */
    list: text("list").notNull(),
    /** SHA-256 of the publication's files, in the format's file order. */
    contentHash: text("content_hash").notNull(),
    /** Where it came from: file paths or URLs, comma-separated. */
    source: text("source").notNull(),
    entryCount: integer("entry_count").notNull(),
    aliasCount: integer("alias_count").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("sanctions_list_versions_hash_idx").on(t.list, t.contentHash)],
);
