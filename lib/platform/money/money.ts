/**
 * A money value: amount and currency together (the house rule), the amount in the project's
 * decimal representation, a wire decimal string (six places on the wire, spec 2.1; never a float).
 * Ledger postings use bigint minor units instead (lib/finance/ledger, fromMinor/toMinor at the boundary).
 */
export interface Money {
  amount: string;
  currency: string;
}

export function money(amount: string, currency: string): Money {
  return { amount, currency };
}
