import { and, asc, eq, gte, inArray, isNotNull, isNull, lt, type SQL, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { journalEntries, journalLines, ledgerAccounts, transfers } from "@/db/schema";
import type { AccountCode } from "./accounts";

/** sum() of a bigint column is numeric: read as text, then exactly as bigint. */
const total = (col: typeof journalLines.debitMinor | typeof journalLines.creditMinor) => sql<string>`coalesce(sum(${col}), 0)::text`;

export interface CurrencyTotals {
  currency: string;
  debit: bigint;
  credit: bigint;
}

/** Debits and credits of every posted line per currency; each pair is equal in a sound ledger. */
export async function trialBalance(db: Executor): Promise<CurrencyTotals[]> {
  const rows = await db
    .select({ currency: ledgerAccounts.currency, debit: total(journalLines.debitMinor), credit: total(journalLines.creditMinor) })
    .from(journalLines)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, journalLines.accountId))
    .groupBy(ledgerAccounts.currency)
    .orderBy(asc(ledgerAccounts.currency));
  return rows.map((r) => ({ currency: r.currency, debit: BigInt(r.debit), credit: BigInt(r.credit) }));
}

export interface AccountBalance extends CurrencyTotals {
  accountId: string;
  code: AccountCode;
  transferId: string | null;
  partnerId: string | null;
  /** debit - credit: positive for assets that hold money, negative for liabilities owed. */
  balance: bigint;
}

export interface AccountFilters {
  code?: AccountCode;
  transferId?: string;
  currency?: string;
  /** Only the per-transfer accounts (true) or only the others (false). */
  perTransfer?: boolean;
  /** Lines of entries dated before this instant only (the balance as of then). */
  asOf?: Date;
  limit?: number;
}

/** Balances of the accounts matching the filters, house accounts first. */
export async function accountBalances(db: Executor, filters: AccountFilters = {}): Promise<AccountBalance[]> {
  const where: SQL[] = [];
  if (filters.code) where.push(eq(ledgerAccounts.code, filters.code));
  if (filters.transferId) where.push(eq(ledgerAccounts.transferId, filters.transferId));
  if (filters.currency) where.push(eq(ledgerAccounts.currency, filters.currency));
  if (filters.perTransfer !== undefined) where.push(filters.perTransfer ? isNotNull(ledgerAccounts.transferId) : isNull(ledgerAccounts.transferId));
  // The as-of bound sits in the join: an account with no line before then still answers zero.
  // Through the column's own mapping (lt): a Date in a raw template is a 500 on postgres.js.
  const dated = filters.asOf ? lt(journalEntries.createdAt, filters.asOf) : undefined;
  const rows = await db
    .select({
      accountId: ledgerAccounts.id,
      code: ledgerAccounts.code,
      currency: ledgerAccounts.currency,
      transferId: ledgerAccounts.transferId,
      partnerId: ledgerAccounts.partnerId,
      debit: sql<string>`coalesce(sum(${journalLines.debitMinor}) filter (where ${journalEntries.id} is not null), 0)::text`,
      credit: sql<string>`coalesce(sum(${journalLines.creditMinor}) filter (where ${journalEntries.id} is not null), 0)::text`,
    })
    .from(ledgerAccounts)
    .leftJoin(journalLines, eq(journalLines.accountId, ledgerAccounts.id))
    .leftJoin(journalEntries, and(eq(journalEntries.id, journalLines.entryId), dated))
    .where(where.length ? and(...where) : undefined)
    .groupBy(ledgerAccounts.id)
    .orderBy(sql`${ledgerAccounts.transferId} nulls first`, asc(ledgerAccounts.code), asc(ledgerAccounts.currency))
    .limit(filters.limit ?? 500);
  return rows.map((r) => {
    const debit = BigInt(r.debit);
    const credit = BigInt(r.credit);
    return { ...r, debit, credit, balance: debit - credit };
  });
}

export interface LedgerLine {
  entryId: string;
  createdAt: Date;
  kind: string;
  memo: string;
  sourceKey: string;
  entryTransferId: string | null;
  transferStateHistoryId: string | null;
  reference: string | null;
  lineNo: number;
  account: AccountCode;
  currency: string;
  accountTransferId: string | null;
  accountPartnerId: string | null;
  /** The customer and partner of the entry's (or the account's) transfer, else the account's partner. */
  customerId: string | null;
  partnerId: string | null;
  debit: bigint;
  credit: bigint;
}

const lineColumns = {
  entryId: journalEntries.id,
  createdAt: journalEntries.createdAt,
  kind: journalEntries.kind,
  memo: journalEntries.memo,
  sourceKey: journalEntries.sourceKey,
  entryTransferId: journalEntries.transferId,
  transferStateHistoryId: journalEntries.transferStateHistoryId,
  reference: journalEntries.reference,
  lineNo: journalLines.lineNo,
  account: ledgerAccounts.code,
  currency: ledgerAccounts.currency,
  accountTransferId: ledgerAccounts.transferId,
  accountPartnerId: ledgerAccounts.partnerId,
  customerId: transfers.customerId,
  partnerId: sql<string | null>`coalesce(${transfers.partnerId}, ${ledgerAccounts.partnerId})`,
  debit: journalLines.debitMinor,
  credit: journalLines.creditMinor,
};

function linesQuery(db: Executor, where?: SQL) {
  return db
    .select(lineColumns)
    .from(journalLines)
    .innerJoin(journalEntries, eq(journalEntries.id, journalLines.entryId))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, journalLines.accountId))
    .leftJoin(transfers, eq(transfers.id, sql`coalesce(${journalEntries.transferId}, ${ledgerAccounts.transferId})`))
    .where(where)
    .orderBy(asc(journalEntries.createdAt), asc(journalEntries.id), asc(journalLines.lineNo));
}

/** Every journal line in posting order (the accountants' export), optionally within [from, to). */
export async function journalLinesBetween(db: Executor, range: { from?: Date; to?: Date } = {}): Promise<LedgerLine[]> {
  const where: SQL[] = [];
  // Through the column's own mapping: a Date in a raw template is a 500 on postgres.js.
  if (range.from) where.push(gte(journalEntries.createdAt, range.from));
  if (range.to) where.push(lt(journalEntries.createdAt, range.to));
  return linesQuery(db, where.length ? and(...where) : undefined);
}

export interface EntryWithLines {
  entryId: string;
  createdAt: Date;
  kind: string;
  memo: string;
  sourceKey: string;
  transferStateHistoryId: string | null;
  lines: Pick<LedgerLine, "account" | "currency" | "accountTransferId" | "debit" | "credit">[];
}

/** A transfer's journal entries (posted for it, or touching its accounts), oldest first. */
export async function transferEntries(db: Executor, transferId: string): Promise<EntryWithLines[]> {
  const touching = db
    .selectDistinct({ id: journalLines.entryId })
    .from(journalLines)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, journalLines.accountId))
    .where(eq(ledgerAccounts.transferId, transferId));
  const rows = await linesQuery(db, sql`${journalEntries.transferId} = ${transferId} or ${inArray(journalEntries.id, touching)}`);
  const entries = new Map<string, EntryWithLines>();
  for (const r of rows) {
    const e = entries.get(r.entryId) ?? {
      entryId: r.entryId,
      createdAt: r.createdAt,
      kind: r.kind,
      memo: r.memo,
      sourceKey: r.sourceKey,
      transferStateHistoryId: r.transferStateHistoryId,
      lines: [],
    };
    e.lines.push({ account: r.account, currency: r.currency, accountTransferId: r.accountTransferId, debit: r.debit, credit: r.credit });
    entries.set(r.entryId, e);
  }
  return [...entries.values()];
}
