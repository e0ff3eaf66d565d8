/**
 * Daily bank reconciliation (docs/decisions.md "Daily bank reconciliation"):
 * each imported statement's closing booked balance, per account, currency and date, against the
 * ledger's cash account as of the day's end, plus the statement's own credits (booked by that
 * day) posted after it: they are posted when the statement is imported, often days later, and
 * nothing else posted in between may count. A difference is listed, with its age in days, until an
 * operator explains it (audited).
 */
import { and, desc, eq, gte, isNull, lt, or, sql } from "drizzle-orm";
import type { Executor, Tx } from "@/db";
import { newId } from "@/db/ids";
import { bankCredits, journalEntries, journalLines, ledgerAccounts, statementBalances } from "@/db/schema";
import { notFound } from "@/lib/platform/errors";
import { toMinor, type AccountCode } from "@/lib/finance/ledger";
import type { Operator } from "@/lib/platform/audit";
import { NONE } from "@/lib/platform/state-machine/define";
import { statementBalanceMachine } from "./statement-balance-state-machine";

const DAY_MS = 86_400_000;

/**
 * A statement's creation time as the bank wrote it (ISO 8601; camt's ISODateTime may omit the
 * offset: read as UTC, the same for every statement of one bank, so their order holds); null if none.
 */
export function statementInstant(text: string | null | undefined): Date | null {
  if (!text) return null;
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text}Z`;
  const at = new Date(zoned);
  return Number.isNaN(at.getTime()) ? null : at;
}

/**
 * Records each closing balance of a statement, per account, currency and day: every statement of
 * a day is kept (a later one used to be dropped); the same statement imported
 * again changes nothing.
 */
export async function recordClosingBalances(
  tx: Tx,
  statementId: string,
  balances: readonly { account: string; amount: string; currency: string; date: string; statementCreatedAt?: string | null }[],
  ledgerAccount: AccountCode,
  now: Date,
): Promise<void> {
  for (const b of balances) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(b.date)) continue;
    const negative = b.amount.startsWith("-");
    const magnitude = toMinor(negative ? b.amount.slice(1) : b.amount, b.currency);
    await tx
      .insert(statementBalances)
      .values({
        id: newId("sbl"),
        statementId,
        account: b.account,
        ledgerAccount,
        currency: b.currency,
        balanceDate: b.date,
        closingMinor: negative ? -magnitude : magnitude,
        state: statementBalanceMachine.next(NONE, "import").to,
        statementCreatedAt: statementInstant(b.statementCreatedAt),
        createdAt: now,
      })
      .onConflictDoNothing();
  }
}

/** A house account's balance (debit - credit) from the entries dated before `asOf`. */
export async function ledgerBalance(db: Executor, code: AccountCode, currency: string, asOf: Date): Promise<bigint> {
  const [row] = await db
    .select({ balance: sql<string>`coalesce(sum(${journalLines.debitMinor} - ${journalLines.creditMinor}), 0)::text` })
    .from(journalLines)
    .innerJoin(journalEntries, eq(journalEntries.id, journalLines.entryId))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, journalLines.accountId))
    .where(and(eq(ledgerAccounts.code, code), eq(ledgerAccounts.currency, currency), lt(journalEntries.createdAt, asOf)));
  return BigInt(row?.balance ?? "0");
}

/**
 * The statement's own credits, booked on or before its balance date, whose postings
 * (`bank-credit:<AcctSvcrRef>`, lib/payments/reconciliation/postings.ts) are dated at or after the day's
 * end because the statement was imported later: the closing balance includes them.
 */
async function ownCreditsPostedLater(
  db: Executor,
  statementId: string,
  code: AccountCode,
  currency: string,
  balanceDate: string,
  dayEnd: Date,
): Promise<bigint> {
  const [row] = await db
    .select({ sum: sql<string>`coalesce(sum(${journalLines.debitMinor} - ${journalLines.creditMinor}), 0)::text` })
    .from(journalLines)
    .innerJoin(journalEntries, eq(journalEntries.id, journalLines.entryId))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, journalLines.accountId))
    .innerJoin(bankCredits, eq(journalEntries.sourceKey, sql`'bank-credit:' || ${bankCredits.bankReference}`))
    .where(
      and(
        eq(bankCredits.statementId, statementId),
        // A date or a date-time (BookgDt/DtTm): "~" sorts after any time of the day.
        or(isNull(bankCredits.bookingDate), lt(bankCredits.bookingDate, `${balanceDate}~`)),
        eq(ledgerAccounts.code, code),
        eq(ledgerAccounts.currency, currency),
        gte(journalEntries.createdAt, dayEnd),
      ),
    );
  return BigInt(row?.sum ?? "0");
}

/** SUPERSEDED: an earlier statement of a day that has a later one (shown, not reconciled). */
export type ReconciliationStatus = "MATCHED" | "DIFFERENCE" | "EXPLAINED" | "SUPERSEDED";

export interface ReconciliationLine {
  id: string;
  statementId: string;
  account: string;
  ledgerAccount: AccountCode;
  currency: string;
  date: string;
  /** When the bank created the statement (null when it did not say), and when we imported it. */
  statementCreatedAt: Date | null;
  importedAt: Date;
  /** The statement of the same account and day that replaces this one, for a SUPERSEDED line. */
  supersededBy: string | null;
  statementMinor: bigint;
  ledgerMinor: bigint;
  /** statement - ledger. */
  differenceMinor: bigint;
  status: ReconciliationStatus;
  /** Days since the balance's date while the difference is open; null otherwise. */
  ageDays: number | null;
  explanation: string | null;
}

/**
 * The daily report: every recorded closing balance (newest day first) against the ledger. A
 * day's statements of one account and currency are listed latest first: the latest (by the bank's
 * creation time, then by arrival) is reconciled, the others are SUPERSEDED.
 */
export async function dailyReconciliation(db: Executor, now: Date, limit = 200): Promise<ReconciliationLine[]> {
  const rows = await db
    .select()
    .from(statementBalances)
    .orderBy(
      desc(statementBalances.balanceDate),
      statementBalances.account,
      statementBalances.currency,
      sql`coalesce(${statementBalances.statementCreatedAt}, ${statementBalances.createdAt}) desc`,
      desc(statementBalances.createdAt),
      desc(statementBalances.id),
    )
    .limit(limit);
  const out: ReconciliationLine[] = [];
  const latest = new Map<string, string>();
  for (const r of rows) {
    const day = `${r.account}|${r.currency}|${r.balanceDate}`;
    const supersededBy = latest.get(day) ?? null;
    if (!supersededBy) latest.set(day, r.statementId);
    const dayEnd = new Date(Date.parse(`${r.balanceDate}T00:00:00Z`) + DAY_MS);
    const ledgerMinor =
      (await ledgerBalance(db, r.ledgerAccount, r.currency, dayEnd)) +
      (await ownCreditsPostedLater(db, r.statementId, r.ledgerAccount, r.currency, r.balanceDate, dayEnd));
    const differenceMinor = r.closingMinor - ledgerMinor;
    const status: ReconciliationStatus = supersededBy
      ? "SUPERSEDED"
      : differenceMinor === 0n
        ? "MATCHED"
        : r.state === "EXPLAINED"
          ? "EXPLAINED"
          : "DIFFERENCE";
    out.push({
      id: r.id,
      statementId: r.statementId,
      account: r.account,
      ledgerAccount: r.ledgerAccount,
      currency: r.currency,
      date: r.balanceDate,
      statementCreatedAt: r.statementCreatedAt,
      importedAt: r.createdAt,
      supersededBy,
      statementMinor: r.closingMinor,
      ledgerMinor,
      differenceMinor,
      status,
      ageDays: status === "DIFFERENCE" ? Math.max(0, Math.floor((now.getTime() - Date.parse(`${r.balanceDate}T00:00:00Z`)) / DAY_MS)) : null,
      explanation: r.explanation,
    });
  }
  return out;
}

/** An operator explains a difference (a timing difference, a bank error being chased...): the command audits it (lib/operations/commands/finance.ts). */
export async function explainDifference(
  tx: Tx,
  input: { id: string; explanation: string; operator: Operator; now: Date },
): Promise<{ id: string; before: string; after: string }> {
  const [row] = await tx.select().from(statementBalances).where(eq(statementBalances.id, input.id)).for("update");
  if (!row) throw notFound("statementBalance");
  const state = statementBalanceMachine.next(row.state, "explain").to;
  await tx
    .update(statementBalances)
    .set({ state, explanation: input.explanation, explainedBy: input.operator.id, explainedAt: input.now })
    .where(eq(statementBalances.id, row.id));
  return { id: row.id, before: row.state, after: state };
}
