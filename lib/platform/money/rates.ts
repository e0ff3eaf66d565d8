import type { Decimal } from "./decimal";

/**
 * A source of reference (mid-market) exchange rates, as the books read it for their reports and
 * pricing quotes with it (lib/payments/pricing/reference-rate.ts: the sandbox model and the feeds).
 */
export interface CurrencyPair {
  from: string;
  to: string;
}

export interface ReferenceRateProvider {
  /** Units of `to` per unit of `from` at `now`; throws for a pair it does not quote. */
  rate(pair: CurrencyPair, now: Date): Decimal;
}
