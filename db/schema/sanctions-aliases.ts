import { index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { sanctionsListVersions } from "./sanctions-list-versions";

/** Another name of an entry of one list version (OFAC alt.csv: aka, fka, nka; UN INDIVIDUAL_ALIAS). */
export const sanctionsAliases = pgTable(
  "sanctions_aliases",
  {
    versionId: text("version_id")
      .notNull()
      .references(() => sanctionsListVersions.id),
    entryId: text("entry_id").notNull(),
    /** The alias's number in its list (OFAC alt_num). */
    aliasId: text("alias_id").notNull(),
    aliasType: text("alias_type").notNull(),
    name: text("name").notNull(),
    /** "low": a weak alias matched only exactly (UN quality "Low", a name in its original script). */
    quality: text("quality").$type<"low">(),
  },
  (t) => [primaryKey({ columns: [t.versionId, t.aliasId] }), index("sanctions_aliases_entry_idx").on(t.versionId, t.entryId)],
);
