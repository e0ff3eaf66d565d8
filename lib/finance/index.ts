/**
 * The finance context's entry: what the other contexts may use of it (.dependency-cruiser.cjs).
 * Imports from other contexts that predate the entry are listed in
 * .dependency-cruiser-known-violations.json and move here as they are touched.
 */
// The ledger: postings, balances, minor units, and each payout provider's prefunding account.
export {
  accountBalances,
  fromMinor,
  isPayoutProviderId,
  postEntry,
  PREFUNDING_ACCOUNTS,
  prefundingAccount,
  toMinor,
  type AccountBalance,
  type PayoutProviderId,
} from "./ledger";
