/**
 * The double-entry ledger: the one way to post money (postEntry) and the reads the
 * console and the tests use. Amounts are bigint minor units; see docs/decisions.md.
 */
export {
  ACCOUNT_CODES,
  ACCOUNT_TYPE,
  FUNDING_SOURCES,
  accountFamily,
  isAccountCode,
  isPartnerAccount,
  isPayoutProviderId,
  isTransferAccount,
  PREFUNDING_ACCOUNTS,
  prefundingAccount,
  refundCashAccount,
} from "./accounts";
export type { AccountCode, AccountType, FundingSource, PayoutProviderId } from "./accounts";
export { fromMinor, toMinor } from "./minor";
export { isPeriod, isPeriodClosed, periodBounds, periodOf } from "./periods";
export { checkLines, posting, postEntry } from "./post";
export type { PostEntryInput, PostingLine } from "./post";
export { accountBalances, journalLinesBetween, transferEntries, trialBalance } from "./read";
export type { AccountBalance, AccountFilters, CurrencyTotals, EntryWithLines, LedgerLine } from "./read";
