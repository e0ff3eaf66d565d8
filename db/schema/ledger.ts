import { sql } from "drizzle-orm";
import { bigint, check, foreignKey, index, integer, pgTable, text, unique } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { partners } from "./partners";
import { transfers, transferStateHistory } from "./transfers";

/**
 * The chart of accounts (docs/decisions.md "Ledger: chart of accounts and postings"): the codes a
 * ledger account may carry. Their types and families: lib/finance/ledger/accounts.ts.
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
  // A paid payout the beneficiary's bank sent back to a payout provider (back in its prefunding):
  // owed to the customer until an operator refunds it (per currency; the entry names the transfer).
  "suspense:returned-payouts",
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

/**
 * The double-entry ledger (docs/decisions.md "Ledger: chart of accounts and postings").
 * All three tables are append-only: a trigger in the migrations refuses UPDATE and DELETE.
 * Amounts are integer minor units of the account's currency (bigint, never a float).
 */
export const ledgerAccounts = pgTable(
  "ledger_accounts",
  {
    id: text("id").primaryKey(),
    code: text("code").$type<AccountCode>().notNull(),
    currency: text("currency").notNull(),
    /** Set for the per-transfer accounts (transfer:*); null for the house accounts. */
    transferId: text("transfer_id").references(() => transfers.id),
    /** Set for the per-partner accounts (payable:partner-fees); null otherwise. */
    partnerId: text("partner_id").references(() => partners.id),
    createdAt: createdAt(),
  },
  // NULLS NOT DISTINCT: one house account per code and currency, too.
  (t) => [
    unique("ledger_accounts_key").on(t.code, t.currency, t.transferId, t.partnerId).nullsNotDistinct(),
    index("ledger_accounts_transfer_idx").on(t.transferId),
  ],
);

export const journalEntries = pgTable(
  "journal_entries",
  {
    id: text("id").primaryKey(),
    /** What caused the entry (a state-history row, a statement entry, a refund): posted once. */
    sourceKey: text("source_key").notNull(),
    kind: text("kind").notNull(),
    memo: text("memo").notNull(),
    transferId: text("transfer_id").references(() => transfers.id),
    transferStateHistoryId: text("transfer_state_history_id"),
    /** The bank's reference of the money movement (a statement entry, a refund or payment paid), for the export. */
    reference: text("reference"),
    /** The entry's date: a posting dated in a closed period is refused (lib/finance/books/periods.ts, and a trigger). */
    createdAt: createdAt(),
  },
  (t) => [
    unique("journal_entries_source_key").on(t.sourceKey),
    index("journal_entries_transfer_idx").on(t.transferId),
    index("journal_entries_created_idx").on(t.createdAt),
    // Named here: the generated name would pass PostgreSQL's 63-character limit and be cut.
    foreignKey({ name: "journal_entries_history_fk", columns: [t.transferStateHistoryId], foreignColumns: [transferStateHistory.id] }),
  ],
);

export const journalLines = pgTable(
  "journal_lines",
  {
    id: text("id").primaryKey(),
    entryId: text("entry_id")
      .notNull()
      .references(() => journalEntries.id),
    /** Order within the entry, as posted. */
    lineNo: integer("line_no").notNull(),
    accountId: text("account_id")
      .notNull()
      .references(() => ledgerAccounts.id),
    debitMinor: bigint("debit_minor", { mode: "bigint" }).notNull(),
    creditMinor: bigint("credit_minor", { mode: "bigint" }).notNull(),
  },
  (t) => [
    unique("journal_lines_entry_line").on(t.entryId, t.lineNo),
    index("journal_lines_account_idx").on(t.accountId),
    // One side per line, positive: a stray query cannot write a negative or two-sided line.
    check("journal_lines_one_side", sql`(${t.debitMinor} > 0 and ${t.creditMinor} = 0) or (${t.debitMinor} = 0 and ${t.creditMinor} > 0)`),
  ],
);
