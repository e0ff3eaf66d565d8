import { config } from "@/lib/config";
import type { PayoutBank } from "@/lib/config/payout-banks";

export type { PayoutBank } from "@/lib/config/payout-banks";

/** The payout bank for a destination currency: the first configured bank that pays it out. */
export function bankForCurrency(currency: string): PayoutBank | undefined {
  return config().PAYOUT_BANKS.find((b) => b.currencies.includes(currency));
}

export function bankById(id: string): PayoutBank | undefined {
  return config().PAYOUT_BANKS.find((b) => b.id === id);
}
