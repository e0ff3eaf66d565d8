/**
 * The general-ledger CSV: one row per journal line, in the layout of a
 * journal import (Xero "Manual Journals" / QuickBooks Online "Journal Entry" CSV): a journal
 * number and date shared by an entry's lines, the account, a debit or a credit (the other side
 * empty), the currency and a description; then what traces it (bank reference, transfer,
 * customer, partner). Amounts are decimals in the currency's minor unit, never floats.
 */
import type { Executor } from "@/db";
import { fromMinor, journalLinesBetween, type LedgerLine } from "@/lib/finance/ledger";

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. */
export function csvField(value: string): string {
  // A leading = + - @ would be a formula to a spreadsheet: prefixed with ' (OWASP CSV injection).
  const safe = /^[=+\-@\t\r]/.test(value) && !/^-\d/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [header, ...rows].map((r) => r.map(csvField).join(",")).join("\r\n") + "\r\n";
}

export const GL_HEADER = [
  "JournalNumber",
  "Date",
  "AccountCode",
  "Debit",
  "Credit",
  "Currency",
  "Description",
  "BankReference",
  "Transfer",
  "Customer",
  "Partner",
  "Kind",
  "PostedAt",
] as const;

/** The account as an accounting package sees it: the chart code, with the partner of a per-partner account. */
export function accountLabel(l: Pick<LedgerLine, "account" | "accountPartnerId">): string {
  return l.accountPartnerId ? `${l.account}:${l.accountPartnerId}` : l.account;
}

export function glRow(l: LedgerLine): string[] {
  return [
    l.entryId,
    l.createdAt.toISOString().slice(0, 10),
    accountLabel(l),
    l.debit > 0n ? fromMinor(l.debit, l.currency) : "",
    l.credit > 0n ? fromMinor(l.credit, l.currency) : "",
    l.currency,
    l.memo,
    l.reference ?? "",
    l.accountTransferId ?? l.entryTransferId ?? "",
    l.customerId ?? "",
    l.partnerId ?? "",
    l.kind,
    l.createdAt.toISOString(),
  ];
}

/** The general ledger for entries dated in [from, to), as CSV. */
export async function generalLedgerCsv(db: Executor, range: { from?: Date; to?: Date }): Promise<string> {
  return csv(GL_HEADER, (await journalLinesBetween(db, range)).map(glRow));
}
