import { clock } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";
import type { PayoutBank } from "@/lib/platform/config/payout-banks";
import type { AccountCalendar } from "@/lib/payments/delivery/business-calendar";
import { knownTables, tableInForce } from "@/lib/payments/corridors/versions";

export type { PayoutBank } from "@/lib/platform/config/payout-banks";

/**
 * The payout banks in force at `now`: the configuration version's (docs/decisions.md "Payout banks
 * in a configuration version"), else the PAYOUT_BANKS setting's.
 */
export function payoutBanksAt(now: Date = clock.now()): readonly PayoutBank[] {
  return tableInForce(now).payoutBanks ?? config().PAYOUT_BANKS;
}

/** The payout bank for a destination currency: the first bank in force that pays it out. */
export function bankForCurrency(currency: string, now: Date = clock.now()): PayoutBank | undefined {
  return payoutBanksAt(now).find((b) => b.currencies.includes(currency));
}

/** A bank by id (a payout file's): the one in force, else the latest version or the setting that named it. */
export function bankById(id: string): PayoutBank | undefined {
  const named = [payoutBanksAt(), ...[...knownTables()].reverse().map((t) => t.payoutBanks ?? []), config().PAYOUT_BANKS];
  for (const banks of named) {
    const bank = banks.find((b) => b.id === id);
    if (bank) return bank;
  }
  return undefined;
}

/**
 * Our account's calendar at a payout bank, for its files' execution date: the holidays of the
 * bank's country (the BIC's, where the account is held) in its time zone (or the collection
 * account's when the bank names none).
 */
export function bankCalendar(bank: PayoutBank): AccountCalendar {
  return { country: bank.bic.slice(4, 6), timeZone: bank.timeZone ?? config().COLLECTION_ACCOUNT_TIME_ZONE };
}
