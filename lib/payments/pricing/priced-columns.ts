import type { pricingColumns } from "@/db/schema/columns";
import type { Money } from "@/lib/platform/money/money";
import type { EnvelopeTerms } from "./envelope";

/**
 * The eight priced columns a quote stores and its transfer copies (db/schema/columns.ts
 * pricingColumns): decimal strings, never floats. One mapper for them, so that no caller re-keys
 * them by hand: the copy from quote to transfer, the spec 5.4 claim names the envelope checks,
 * and the amounts as Money.
 */
export interface PricedColumns {
  originAmount: string;
  originCurrency: string;
  destinationAmount: string;
  destinationCurrency: string;
  fxRate: string;
  principalFee: string;
  partnerFee: string;
  totalCustomerCost: string;
}

// The interface and the schema's column set name the same eight columns (a compile error otherwise).
type SchemaColumns = keyof ReturnType<typeof pricingColumns>;
const sameColumns: [SchemaColumns, keyof PricedColumns] extends [keyof PricedColumns, SchemaColumns] ? true : never = true;
void sameColumns;

/** Only the priced columns of a row (a quote's, copied onto its transfer). */
export function pricedColumnsOf(row: PricedColumns): PricedColumns {
  return {
    originAmount: row.originAmount,
    originCurrency: row.originCurrency,
    destinationAmount: row.destinationAmount,
    destinationCurrency: row.destinationCurrency,
    fxRate: row.fxRate,
    principalFee: row.principalFee,
    partnerFee: row.partnerFee,
    totalCustomerCost: row.totalCustomerCost,
  };
}

/** The priced columns under their spec 5.4 claim names, for signing and the envelope check. */
export function envelopeTermsOfColumns(c: PricedColumns): EnvelopeTerms {
  return {
    send_amount: c.originAmount,
    send_currency: c.originCurrency,
    receive_amount: c.destinationAmount,
    receive_currency: c.destinationCurrency,
    fx_rate: c.fxRate,
    principal_fee: c.principalFee,
    partner_fee: c.partnerFee,
    total_consumer_cost: c.totalCustomerCost,
  };
}

/** The amounts as Money: the fees and the total are in the origin currency (spec 2.1). */
export function pricedMoney(c: PricedColumns): { send: Money; receive: Money; principalFee: Money; partnerFee: Money; totalCustomerCost: Money } {
  return {
    send: { amount: c.originAmount, currency: c.originCurrency },
    receive: { amount: c.destinationAmount, currency: c.destinationCurrency },
    principalFee: { amount: c.principalFee, currency: c.originCurrency },
    partnerFee: { amount: c.partnerFee, currency: c.originCurrency },
    totalCustomerCost: { amount: c.totalCustomerCost, currency: c.originCurrency },
  };
}
