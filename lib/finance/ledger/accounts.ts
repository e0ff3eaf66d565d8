/**
 * The chart of accounts (docs/decisions.md "Ledger: chart of accounts and postings"). A leaf:
 * the schema, the postings table and the console import it, and it imports nothing.
 */
export const ACCOUNT_CODES = [
  // Assets: money we hold.
  "cash:card-clearing",
  "cash:collection",
  "cash:payout-bank",
  // Our prefunded balance at the payout aggregator (its API pays out from it).
  "cash:payout-aggregator",
  // What a payout provider paid late (after we failed over) from our prefunding and owes back:
  // the late payment is refused and its reversal asked.
  "receivable:payout-reversals",
  // Per-transfer liabilities (the account carries the transfer id).
  "transfer:customer-funds",
  "transfer:payout-in-flight",
  "transfer:refund-due",
  // Bank credits not yet matched to a transfer (a liability to whoever sent them).
  "suspense:unallocated",
  // Property of a listed person received for a transfer: held, neither paid out nor
  // refunded, until a licence or delisting releases it (the transfer id is on each entry).
  "blocked:sanctions",
  // Our own fee (the quote's principal fee) only: a partner's fee is not our revenue.
  "revenue:fees",
  // A partner-signed quote's partner_fee, owed to the partner (one account per partner and
  // currency: the account carries the partner id), settled by a recorded payment.
  "payable:partner-fees",
  // One per currency: a conversion leaves each currency balanced on its own.
  "fx:conversion",
  // Manual journals: the house's own money (prefunding the payout bank comes from
  // here) and what the banks charge.
  "cash:operating",
  "equity:capital",
  "expense:bank-charges",
  // Losses we accept: a bank credit short by at most the tolerance funds its
  // transfer and the shortfall is written off here; manual write-offs too.
  "expense:write-offs",
  // What we give back on a customer's error claim resolved with REFUND: our cost.
  "expense:claims",
] as const;
export type AccountCode = (typeof ACCOUNT_CODES)[number];

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

/**
 * Where a transfer's money came from, and so where its refund is paid back to: the card PSP's
 * clearing account, the collection bank account (sandbox instant bank transfer), or suspense (a
 * bank credit matched from a statement, already posted Dr cash:collection / Cr suspense).
 */
export const FUNDING_SOURCES = ["cash:card-clearing", "cash:collection", "suspense:unallocated"] as const;
export type FundingSource = (typeof FUNDING_SOURCES)[number];

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
