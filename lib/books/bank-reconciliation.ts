/**
 * Daily bank reconciliation (issue 24 item 5; docs/decisions.md "Daily bank reconciliation"):
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
import { notFound } from "@/lib/errors";
import { toMinor, type AccountCode } from "@/lib/ledger";
import type { Operator } from "@/lib/operators/records";
import { effectsOf } from "@/lib/platform/unit-of-work";
import { NONE } from "@/lib/state-machine/define";
import { statementBalanceMachine } from "./statement-balance-state-machine";

const DAY_MS = 86_400_000;

/** Records each closing balance once per account, currency and day (a re-import changes nothing). */
export async function recordClosingBalances(
  tx: Tx,
  statementId: string,
  balances: readonly { account: string; amount: string; currency: string; date: string }[],
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
 * (`bank-credit:<AcctSvcrRef>`, lib/reconciliation/postings.ts) are dated at or after the day's
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

export type ReconciliationStatus = "MATCHED" | "DIFFERENCE" | "EXPLAINED";

export interface ReconciliationLine {
  id: string;
  statementId: string;
  account: string;
  ledgerAccount: AccountCode;
  currency: string;
  date: string;
  statementMinor: bigint;
  ledgerMinor: bigint;
  /** statement - ledger. */
  differenceMinor: bigint;
  status: ReconciliationStatus;
  /** Days since the balance's date while the difference is open; null otherwise. */
  ageDays: number | null;
  explanation: string | null;
}

/** The daily report: every recorded closing balance (newest first) against the ledger. */
export async function dailyReconciliation(db: Executor, now: Date, limit = 200): Promise<ReconciliationLine[]> {
  const rows = await db.select().from(statementBalances).orderBy(desc(statementBalances.balanceDate), statementBalances.account).limit(limit);
  const out: ReconciliationLine[] = [];
  for (const r of rows) {
    const dayEnd = new Date(Date.parse(`${r.balanceDate}T00:00:00Z`) + DAY_MS);
    const ledgerMinor =
      (await ledgerBalance(db, r.ledgerAccount, r.currency, dayEnd)) +
      (await ownCreditsPostedLater(db, r.statementId, r.ledgerAccount, r.currency, r.balanceDate, dayEnd));
    const differenceMinor = r.closingMinor - ledgerMinor;
    const status: ReconciliationStatus = differenceMinor === 0n ? "MATCHED" : r.state === "EXPLAINED" ? "EXPLAINED" : "DIFFERENCE";
    out.push({
      id: r.id,
      statementId: r.statementId,
      account: r.account,
      ledgerAccount: r.ledgerAccount,
      currency: r.currency,
      date: r.balanceDate,
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

/** An operator explains a difference (a timing difference, a bank error being chased...): audited. */
export async function explainDifference(tx: Tx, input: { id: string; explanation: string; operator: Operator; now: Date }): Promise<void> {
  const [row] = await tx.select().from(statementBalances).where(eq(statementBalances.id, input.id)).for("update");
  if (!row) throw notFound("statementBalance");
  const state = statementBalanceMachine.next(row.state, "explain").to;
  await tx
    .update(statementBalances)
    .set({ state, explanation: input.explanation, explainedBy: input.operator.id, explainedAt: input.now })
    .where(eq(statementBalances.id, row.id));
  await effectsOf(tx).audit.record(
    {
      action: "ledger.reconciliation.explain",
      targetType: "statement_balance",
      targetId: row.id,
      before: { state: row.state },
      after: { state },
      reason: input.explanation,
    },
    input.operator,
  );
}
