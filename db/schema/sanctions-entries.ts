import { jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { sanctionsListVersions } from "./sanctions-list-versions";

/** An entry of one list version, in the one entity model of lib/compliance/screening/entity.ts. */
export const sanctionsEntries = pgTable(
  "sanctions_entries",
  {
    versionId: text("version_id")
      .notNull()
      .references(() => sanctionsListVersions.id),
    /** The entry's number in its list (OFAC ent_num, UN DATAID). */
    entryId: text("entry_id").notNull(),
    /** The list's reference besides the number, when it has one (UN REFERENCE_NUMBER "CDi.001"). */
    reference: text("reference"),
    name: text("name").notNull(),
    /** individual, entity, vessel or aircraft. */
    kind: text("kind").notNull(),
    programs: jsonb("programs").$type<string[]>().notNull(),
    datesOfBirth: jsonb("dates_of_birth").$type<string[]>().notNull(),
    nationalities: jsonb("nationalities").$type<string[]>().notNull(),
    countries: jsonb("countries").$type<string[]>().notNull(),
    remarks: text("remarks"),
  },
  (t) => [primaryKey({ columns: [t.versionId, t.entryId] })],
);
