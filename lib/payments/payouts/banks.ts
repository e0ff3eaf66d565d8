import { config } from "@/lib/platform/config";
import type { PayoutBank } from "@/lib/platform/config/payout-banks";
import type { AccountCalendar } from "@/lib/payments/delivery/business-calendar";

export type { PayoutBank } from "@/lib/platform/config/payout-banks";

/** The payout bank for a destination currency: the first configured bank that pays it out. */
export function bankForCurrency(currency: string): PayoutBank | undefined {
  return config().PAYOUT_BANKS.find((b) => b.currencies.includes(currency));
}

export function bankById(id: string): PayoutBank | undefined {
  return config().PAYOUT_BANKS.find((b) => b.id === id);
}

/**
 * Our account's calendar at a payout bank, for its files' execution date: the holidays of the
 * bank's country (the BIC's, where the account is held) in its time zone (or the collection
 * account's when the bank names none).
 */
export function bankCalendar(bank: PayoutBank): AccountCalendar {
  return { country: bank.bic.slice(4, 6), timeZone: bank.timeZone ?? config().COLLECTION_ACCOUNT_TIME_ZONE };
}
