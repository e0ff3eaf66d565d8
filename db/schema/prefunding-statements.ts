import { bigint, index, pgTable, text, unique } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";

/**
 * A payout provider's balance statement, one row per currency it lists, set against our
 * prefunding account (lib/payments/payouts/prefunding-statement.ts): what the provider says we
 * hold with it at `as_of`, what our ledger held then, and the difference. Written once at import;
 * the same statement imported again is a duplicate. Amounts are signed integer minor units.
 */
export const prefundingStatements = pgTable(
  "prefunding_statements",
  {
    id: text("id").primaryKey(),
    /** The routing table's provider id ("aggregator"). */
    provider: text("provider").notNull(),
    currency: text("currency").notNull(),
    /** The provider's id of the statement. */
    reference: text("reference").notNull(),
    /** The time the provider's balance is for. */
    asOf: tstz("as_of").notNull(),
    statementMinor: bigint("statement_minor", { mode: "bigint" }).notNull(),
    /** Our prefunding account's balance of entries dated before `as_of`. */
    ledgerMinor: bigint("ledger_minor", { mode: "bigint" }).notNull(),
    /** statement - ledger: positive when the provider holds more than our books say. */
    differenceMinor: bigint("difference_minor", { mode: "bigint" }).notNull(),
    /** The import's time (a command's `now`). */
    createdAt: createdAt(),
  },
  (t) => [
    unique("prefunding_statements_key").on(t.provider, t.currency, t.reference),
    // The latest statement per provider and currency: the liquidity page and the alert.
    index("prefunding_statements_latest_idx").on(t.provider, t.currency, t.asOf),
  ],
);
