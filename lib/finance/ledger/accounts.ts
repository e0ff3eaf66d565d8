/**
 * The chart of accounts (docs/decisions.md "Ledger: chart of accounts and postings"): the codes
 * are declared beside their column (db/schema/ledger.ts), their types and families here.
 */
import { ACCOUNT_CODES, type AccountCode } from "@/db/schema/ledger";
import { type FundingSource } from "@/db/schema/transfers";
export { FUNDING_SOURCES, type FundingSource } from "@/db/schema/transfers";

export { ACCOUNT_CODES, type AccountCode } from "@/db/schema/ledger";

export type AccountType = "asset" | "liability" | "equity" | "revenue" | "expense" | "conversion";

export const ACCOUNT_TYPE: Record<AccountCode, AccountType> = {
  "cash:card-clearing": "asset",
  "cash:collection": "asset",
  "cash:payout-bank": "asset",
  "cash:payout-aggregator": "asset",
  "receivable:payout-reversals": "asset",
  "transfer:customer-funds": "liability",
  "transfer:payout-in-flight": "liability",
  "transfer:refund-due": "liability",
  "suspense:unallocated": "liability",
  "suspense:returned-payouts": "liability",
  "blocked:sanctions": "liability",
  "revenue:fees": "revenue",
  "payable:partner-fees": "liability",
  "fx:conversion": "conversion",
  "cash:operating": "asset",
  "equity:capital": "equity",
  "expense:bank-charges": "expense",
  "expense:write-offs": "expense",
  "expense:claims": "expense",
};

/** The family of an account (its code up to the colon: cash, transfer, revenue...): the trial balance subtotals per family. */
export function accountFamily(code: AccountCode): string {
  return code.slice(0, code.indexOf(":"));
}

/** Accounts that exist once per partner (and only with a partner id). */
export function isPartnerAccount(code: AccountCode): boolean {
  return code === "payable:partner-fees";
}

/** Accounts that exist once per transfer (and only with a transfer id). */
export function isTransferAccount(code: AccountCode): boolean {
  return code.startsWith("transfer:");
}

/** The cash account a refund is paid from: suspense money sits in the collection account. */
export function refundCashAccount(source: FundingSource): AccountCode {
  return source === "cash:card-clearing" ? "cash:card-clearing" : "cash:collection";
}

export function isAccountCode(value: unknown): value is AccountCode {
  return typeof value === "string" && (ACCOUNT_CODES as readonly string[]).includes(value);
}

/**
 * Each payout provider's prefunding account (one per currency): topped up from cash:operating,
 * drawn by every payout the provider pays. The bank file pays from our account at the payout bank.
 */
export const PREFUNDING_ACCOUNTS = { "bank-file": "cash:payout-bank", aggregator: "cash:payout-aggregator" } as const satisfies Record<string, AccountCode>;
export type PayoutProviderId = keyof typeof PREFUNDING_ACCOUNTS;

export function isPayoutProviderId(value: unknown): value is PayoutProviderId {
  return typeof value === "string" && Object.hasOwn(PREFUNDING_ACCOUNTS, value);
}

/** The account a transfer's payout draws: its provider's prefunding, the payout bank when none was recorded. */
export function prefundingAccount(provider: string | null | undefined): AccountCode {
  return isPayoutProviderId(provider) ? PREFUNDING_ACCOUNTS[provider] : "cash:payout-bank";
}
