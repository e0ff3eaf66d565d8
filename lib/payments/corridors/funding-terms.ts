/**
 * How customers pay, as the configuration version in force defines it (docs/decisions.md "Funding
 * windows and collection accounts in a configuration version"): each method's window and the
 * accounts bank transfers are collected into. A version without them (every version before they
 * were data) leaves the deployment's settings in force: FUNDING_TTL_SECONDS,
 * BANK_TRANSFER_FUNDING_BUSINESS_DAYS and COLLECTION_ACCOUNT_*.
 *
 * The version in force when the customer gets the terms, not the transfer's: a window is given and
 * an account named at that moment (a session's end is then bound to it), and an account the
 * operator stopped using must not be shown to anyone again.
 */
import type { Executor } from "@/db";
import { config, type CollectionAccount } from "@/lib/platform/config";
import type { CollectionAccountTerms } from "./schema";
import { knownTables, refreshVersions, tableInForce } from "./versions";

const asAccount = (a: CollectionAccountTerms): CollectionAccount => ({
  iban: a.iban,
  bic: a.bic,
  name: a.name,
  currencies: [...a.currencies],
  country: a.iban.slice(0, 2),
  timeZone: a.timeZone,
});

/** A card's window: the funding session's lifetime, in seconds (spec 2.8's 30 minutes unless changed). */
export function cardWindowSeconds(now: Date): number {
  const minutes = tableInForce(now).funding?.windows?.CARD?.minutes;
  return minutes === undefined ? config().FUNDING_TTL_SECONDS : minutes * 60;
}

/** A bank transfer's window, in business days of its collection account's calendar. */
export function bankTransferBusinessDays(now: Date): number {
  return tableInForce(now).funding?.windows?.BANK_TRANSFER?.businessDays ?? config().BANK_TRANSFER_FUNDING_BUSINESS_DAYS;
}

/** The collection accounts in force at `now`: the version's, else the setting's (none when neither). */
export function collectionAccountsAt(now: Date): readonly CollectionAccount[] {
  const accounts = tableInForce(now).funding?.collectionAccounts;
  if (accounts) return accounts.map(asAccount);
  const setting = config().collectionAccount;
  return setting ? [setting] : [];
}

/** The account a bank transfer in `currency` is paid into at `now`; undefined when no account takes it. */
export function collectionAccountFor(currency: string, now: Date): CollectionAccount | undefined {
  return collectionAccountsAt(now).find((a) => a.currencies.includes(currency));
}

/**
 * Every account customers may have been told to pay into: the setting's and each version's (this
 * process's copy; refresh first). A statement of any of them is ours: a payment made before a
 * change of account still arrives in the old one.
 */
export function knownCollectionIbans(): string[] {
  const ibans = new Set<string>();
  const setting = config().collectionAccount;
  if (setting) ibans.add(setting.iban);
  for (const table of knownTables()) for (const a of table.funding?.collectionAccounts ?? []) ibans.add(a.iban);
  return [...ibans];
}

/** knownCollectionIbans after loading the versions this process lacks (a statement's import asks). */
export async function collectionIbans(db: Executor): Promise<string[]> {
  await refreshVersions(db);
  return knownCollectionIbans();
}
