import { jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { tstz } from "./columns";

/**
 * Published reference rates: one row per source and publication, as fetched.
 * `rates` maps a currency to its units per one `base`, as the decimal strings the feed printed
 * (never numbers). Quotes price from the newest row of each source.
 */
export const referenceRateSets = pgTable(
  "reference_rate_sets",
  {
    /** "ecb" or "secondary". */
    source: text("source").notNull(),
    base: text("base").notNull(),
    publishedAt: tstz("published_at").notNull(),
    rates: jsonb("rates").$type<Record<string, string>>().notNull(),
    fetchedAt: tstz("fetched_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.source, t.publishedAt] })],
);
