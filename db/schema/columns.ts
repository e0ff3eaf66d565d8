import { text, timestamp } from "drizzle-orm/pg-core";

/** Timestamps are always timezone-aware and read as Date. */
export const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** Creation time, set by the application clock (never the database's now(), see lib/clock.ts). */
export const createdAt = () => tstz("created_at").notNull();

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
