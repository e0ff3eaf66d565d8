import { sql } from "drizzle-orm";
import { check, text, timestamp, type AnyPgColumn } from "drizzle-orm/pg-core";

/** Timestamps are always timezone-aware and read as Date. */
export const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** Creation time, set by the application clock (never the database's now(), see lib/platform/clock.ts). */
export const createdAt = () => tstz("created_at").notNull();

/**
 * An amount column's format, kept by the database: an unsigned decimal string with no exponent, no
 * sign and no leading zero ("10.500000", "0.5", "1875"), the wire decimal of lib/platform/money/decimal.ts
 * (WIRE_DECIMAL). Amounts stay text (never read back as a JS number); a NULL passes.
 */
export const decimalFormat = (name: string, column: AnyPgColumn) => check(name, sql`${column} ~ '^(0|[1-9][0-9]*)([.][0-9]+)?$'`);

/**
 * The priced terms of a quote, copied onto its transfer: decimal strings with six decimals
 * (never floats, never a numeric column that could be read back as a JS number).
 */
export const pricingColumns = () => ({
  originAmount: text("origin_amount").notNull(),
  originCurrency: text("origin_currency").notNull(),
  destinationAmount: text("destination_amount").notNull(),
  destinationCurrency: text("destination_currency").notNull(),
  fxRate: text("fx_rate").notNull(),
  principalFee: text("principal_fee").notNull(),
  partnerFee: text("partner_fee").notNull(),
  totalCustomerCost: text("total_customer_cost").notNull(),
});

/** The format checks of pricingColumns, named after the table. */
export const pricingChecks = (table: string, t: { [K in keyof ReturnType<typeof pricingColumns>]: AnyPgColumn }) => [
  decimalFormat(`${table}_origin_amount_format`, t.originAmount),
  decimalFormat(`${table}_destination_amount_format`, t.destinationAmount),
  decimalFormat(`${table}_fx_rate_format`, t.fxRate),
  decimalFormat(`${table}_principal_fee_format`, t.principalFee),
  decimalFormat(`${table}_partner_fee_format`, t.partnerFee),
  decimalFormat(`${table}_total_customer_cost_format`, t.totalCustomerCost),
];
