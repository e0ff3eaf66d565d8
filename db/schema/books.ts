import { bigint, index, jsonb, pgTable, text, unique } from "drizzle-orm/pg-core";
import type { AccountCode } from "./ledger";
import { createdAt, tstz } from "./columns";
import { operators } from "./operators";

/** StatementBalanceState: the states its machine moves (`lib/finance/books/statement-balance-state-machine.ts`). */
export const STATEMENT_BALANCE_STATES = ["UNEXPLAINED", "EXPLAINED"] as const;

export type StatementBalanceState = (typeof STATEMENT_BALANCE_STATES)[number];

/** PeriodState: the states its machine moves (`lib/finance/books/period-state-machine.ts`). */
export const PERIOD_STATES = ["OPEN", "CLOSED"] as const;

export type PeriodState = (typeof PERIOD_STATES)[number];

/** ManualJournalState: the states its machine moves (`lib/finance/books/journal-state-machine.ts`). */
export const MANUAL_JOURNAL_STATES = ["PROPOSED", "POSTED", "DISCARDED"] as const;

export type ManualJournalState = (typeof MANUAL_JOURNAL_STATES)[number];

/** One line as proposed: a house account (or a partner's payable), one side, a decimal amount. */
export interface ManualJournalLine {
  account: AccountCode;
  currency: string;
  partnerId?: string | null;
  debit: string;
  credit: string;
}

/**
 * Accounting periods (lib/finance/books/periods.ts): a calendar month (UTC), `2026-10`, with a
 * row once it was first closed. A trigger (migration) refuses a journal entry dated in a CLOSED one.
 */
export const ledgerPeriods = pgTable("ledger_periods", {
  period: text("period").primaryKey(),
  state: text("state").$type<PeriodState>().notNull(),
  changedBy: text("changed_by").references(() => operators.id),
  changedAt: tstz("changed_at").notNull(),
});

/**
 * A manual journal (lib/finance/books/journals.ts): proposed by one operator, posted by a
 * second (or discarded). Lines are decimal strings until posted; the posted entry's source key
 * is `manual-journal:<id>`.
 */
export const manualJournals = pgTable(
  "manual_journals",
  {
    id: text("id").primaryKey(),
    state: text("state").$type<ManualJournalState>().notNull(),
    memo: text("memo").notNull(),
    reference: text("reference"),
    lines: jsonb("lines").$type<ManualJournalLine[]>().notNull(),
    proposedBy: text("proposed_by")
      .notNull()
      .references(() => operators.id),
    decidedBy: text("decided_by").references(() => operators.id),
    decidedAt: tstz("decided_at"),
    createdAt: createdAt(),
  },
  (t) => [index("manual_journals_state_idx").on(t.state, t.createdAt)],
);

/**
 * The closing booked balance (CLBD) of each imported camt.053 statement, per bank account,
 * currency and date: the daily reconciliation compares it with the ledger's
 * cash account. Every statement of a day is kept (a re-import of the same one changes nothing);
 * the day's last (by the bank's creation time, then by arrival) is the one reconciled, the
 * earlier ones shown as superseded. A difference stays UNEXPLAINED (listed
 * with its age) until an operator explains it.
 */
export const statementBalances = pgTable(
  "statement_balances",
  {
    id: text("id").primaryKey(),
    statementId: text("statement_id").notNull(),
    /** Our bank account (IBAN) the statement is of. */
    account: text("account").notNull(),
    ledgerAccount: text("ledger_account").$type<AccountCode>().notNull(),
    currency: text("currency").notNull(),
    /** The balance's date (YYYY-MM-DD) as the bank wrote it. */
    balanceDate: text("balance_date").notNull(),
    /** Signed minor units (a debit balance is negative). */
    closingMinor: bigint("closing_minor", { mode: "bigint" }).notNull(),
    state: text("state").$type<StatementBalanceState>().notNull(),
    explanation: text("explanation"),
    explainedBy: text("explained_by").references(() => operators.id),
    explainedAt: tstz("explained_at"),
    /** When the bank created the statement (Stmt/CreDtTm, else GrpHdr/CreDtTm): orders a day's statements. */
    statementCreatedAt: tstz("statement_created_at"),
    createdAt: createdAt(),
  },
  (t) => [
    unique("statement_balances_statement_day").on(t.statementId, t.account, t.currency, t.balanceDate),
    index("statement_balances_day_idx").on(t.account, t.currency, t.balanceDate),
  ],
);
