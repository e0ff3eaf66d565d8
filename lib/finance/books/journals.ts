/**
 * Manual journal entries (prefunding the payout bank, bank charges, write-offs,
 * corrections) under dual control: one operator proposes (a journal row and a dual-control
 * proposal `ledger.journal.post`), a second approves it on the Approvals page, which posts it;
 * an admin may discard a proposed journal instead.
 * And the payment of partner fees owed (item 2), a posting of its own. Both audited.
 */
import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Executor, Tx } from "@/db";
import { newId } from "@/db/ids";
import { journalLines, ledgerAccounts, manualJournals, partners } from "@/db/schema";
import { DomainError, notFound, validationError, type ValidationIssue } from "@/lib/platform/errors";
import { checkLines, fromMinor, isAccountCode, isPartnerAccount, isTransferAccount, posting, toMinor, type PostingLine } from "@/lib/finance/ledger";
import { isCurrencyCode } from "@/lib/platform/money/currency";
import type { Operator } from "@/lib/platform/audit";
import { effectsOf } from "@/lib/platform/unit-of-work";
import { NONE } from "@/lib/platform/state-machine/define";
import { manualJournalMachine, type ManualJournalLine } from "./journal-state-machine";

export type ManualJournalRow = typeof manualJournals.$inferSelect;

const bad = (issues: ValidationIssue[]) => validationError(issues, issues[0].code, issues.map((i) => i.message).join(" "));

/** The proposed lines as ledger lines: house or partner accounts, whole minor units, balanced per currency. */
async function ledgerLines(db: Executor, lines: readonly ManualJournalLine[], { balanced = true } = {}): Promise<PostingLine[]> {
  const issues: ValidationIssue[] = [];
  const out: PostingLine[] = [];
  for (const [i, l] of lines.entries()) {
    const field = `lines[${i}]`;
    if (!isAccountCode(l.account) || isTransferAccount(l.account)) {
      issues.push({
        field,
        code: "validation.fieldInvalid",
        message: `${field}: ${l.account} is not a house account (a transfer's accounts move with the transfer only).`,
      });
      continue;
    }
    // A listed person's property leaves blocked:sanctions only by a release under
    // licence on its screening case (lib/compliance/screening-cases/blocked-money.ts), never by a journal.
    if (l.account === "blocked:sanctions") {
      issues.push({
        field,
        code: "validation.fieldInvalid",
        message: `${field}: blocked:sanctions holds a listed person's blocked property: it moves only by a release under licence on its screening case, never by a manual journal.`,
      });
      continue;
    }
    if (!isCurrencyCode(l.currency)) {
      issues.push({ field, code: "validation.fieldInvalid", message: `${field}: ${l.currency} is not an ISO 4217 currency.` });
      continue;
    }
    if (isPartnerAccount(l.account)) {
      const [partner] = l.partnerId ? await db.select({ id: partners.id }).from(partners).where(eq(partners.id, l.partnerId)) : [];
      if (!partner) issues.push({ field, code: "validation.fieldInvalid", message: `${field}: ${l.account} needs the partner it is owed to.` });
    }
    try {
      const debit = toMinor(l.debit || "0", l.currency);
      const credit = toMinor(l.credit || "0", l.currency);
      if ((debit === 0n) === (credit === 0n)) throw new RangeError("one side");
      out.push({ account: l.account, currency: l.currency, partnerId: l.partnerId ?? null, debit, credit });
    } catch {
      issues.push({ field, code: "validation.fieldInvalid", message: `${field}: give a debit or a credit (not both), in whole minor units of ${l.currency}.` });
    }
  }
  if (issues.length === 0 && balanced) {
    try {
      checkLines({ lines: out, sourceKey: "manual journal" });
    } catch {
      issues.push({
        field: "lines",
        code: "validation.fieldInvalid",
        message: "The lines must balance in each currency (debits = credits), with at least two lines.",
      });
    }
  }
  if (issues.length > 0) throw bad(issues);
  return out;
}

export async function proposeJournal(
  tx: Tx,
  input: { memo: string; reference?: string | null; lines: readonly ManualJournalLine[]; operator: Operator; now: Date },
): Promise<ManualJournalRow> {
  await ledgerLines(tx, input.lines);
  const [row] = await tx
    .insert(manualJournals)
    .values({
      id: newId("mj"),
      state: manualJournalMachine.next(NONE, "propose").to,
      memo: input.memo,
      reference: input.reference || null,
      lines: [...input.lines],
      proposedBy: input.operator.id,
      createdAt: input.now,
    })
    .returning();
  await effectsOf(tx).audit.record(
    { action: "ledger.journal.propose", targetType: "manual_journal", targetId: row.id, after: { state: row.state, lines: row.lines }, reason: input.memo },
    input.operator,
  );
  return row;
}

export async function lockJournal(tx: Tx, id: string): Promise<ManualJournalRow> {
  const [row] = await tx.select().from(manualJournals).where(eq(manualJournals.id, id)).for("update");
  if (!row) throw notFound("journal");
  return row;
}

/** A journal that can still be posted (PROPOSED), locked; refused otherwise as its machine refuses. */
export async function lockProposedJournal(tx: Tx, id: string): Promise<ManualJournalRow> {
  const row = await lockJournal(tx, id);
  manualJournalMachine.next(row.state, "post");
  return row;
}

/**
 * Posts a proposed journal: one ledger entry, dated now (in the open month). Called by the dual
 * control action `ledger.journal.post` (lib/operations/commands/finance.ts) when a second operator
 * approves it: the separation of duties and the audit entry (proposer and approver) are its.
 */
export async function postJournal(tx: Tx, input: { id: string; operator: Operator; now: Date }): Promise<ManualJournalRow> {
  const row = await lockProposedJournal(tx, input.id);
  const next = manualJournalMachine.next(row.state, "post").to;
  await effectsOf(tx).ledger.post(
    posting({
      sourceKey: `manual-journal:${row.id}`,
      kind: "manual.journal",
      memo: row.memo,
      reference: row.reference,
      lines: await ledgerLines(tx, row.lines),
      now: input.now,
    }),
  );
  const [moved] = await tx
    .update(manualJournals)
    .set({ state: next, decidedBy: input.operator.id, decidedAt: input.now })
    .where(eq(manualJournals.id, row.id))
    .returning();
  return moved;
}

/**
 * Withdraws a proposed journal: nothing is posted; audited. Called when its `ledger.journal.post`
 * proposal is declined; the console's discard goes through lib/operations/dual-control/journal-control.ts, which declines
 * the proposal too.
 */
export async function discardJournal(tx: Tx, input: { id: string; operator: Operator; now: Date }): Promise<ManualJournalRow> {
  const row = await lockJournal(tx, input.id);
  const next = manualJournalMachine.next(row.state, "discard").to;
  const [moved] = await tx
    .update(manualJournals)
    .set({ state: next, decidedBy: input.operator.id, decidedAt: input.now })
    .where(eq(manualJournals.id, row.id))
    .returning();
  await effectsOf(tx).audit.record(
    { action: "ledger.journal.discard", targetType: "manual_journal", targetId: row.id, before: { state: row.state }, after: { state: next } },
    input.operator,
  );
  return moved;
}

/** The journal's lines in one line of text (the Approvals queue's summary). */
export function journalSummary(row: Pick<ManualJournalRow, "lines">): string {
  return row.lines
    .map((l) => `${l.debit ? "Dr" : "Cr"} ${l.partnerId ? `${l.account}:${l.partnerId}` : l.account} ${l.debit || l.credit} ${l.currency}`)
    .join("; ");
}

export async function listJournals(db: Executor, limit = 100): Promise<ManualJournalRow[]> {
  return db.select().from(manualJournals).orderBy(asc(manualJournals.state), desc(manualJournals.createdAt)).limit(limit);
}

/** What a partner is owed in a currency: the credit balance of its payable:partner-fees account (minor units). */
export async function partnerFeesOwed(tx: Tx, partnerId: string, currency: string, { lock = false } = {}): Promise<bigint> {
  const account = tx
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.code, "payable:partner-fees"), eq(ledgerAccounts.currency, currency), eq(ledgerAccounts.partnerId, partnerId)));
  // The account row locked: two approvals of payments to the same partner run one after the other.
  const [row] = lock ? await account.for("update") : await account;
  if (!row) return 0n;
  const [sum] = await tx
    .select({ owed: sql<string>`coalesce(sum(${journalLines.creditMinor} - ${journalLines.debitMinor}), 0)::text` })
    .from(journalLines)
    .where(eq(journalLines.accountId, row.id));
  return BigInt(sum?.owed ?? "0");
}

export interface PartnerFeePayment {
  partnerId: string;
  currency: string;
  amount: string;
  bankReference: string;
}

/** The payment in minor units, refused (409 ledger.partnerFeesExceeded) above what the partner is owed in that currency. */
export async function checkPartnerFeePayment(tx: Tx, input: PartnerFeePayment, { lock = false } = {}): Promise<{ minor: bigint; owed: bigint }> {
  const [line] = await ledgerLines(
    tx,
    [{ account: "payable:partner-fees", currency: input.currency, partnerId: input.partnerId, debit: input.amount, credit: "" }],
    { balanced: false },
  );
  const minor = line.debit!;
  const owed = await partnerFeesOwed(tx, input.partnerId, input.currency, { lock });
  if (minor > owed) {
    throw new DomainError("ledger.partnerFeesExceeded", {
      message: `${input.amount} ${input.currency} is more than the ${fromMinor(owed > 0n ? owed : 0n, input.currency)} ${input.currency} owed to ${input.partnerId}.`,
      details: { owedMinor: owed.toString(), currency: input.currency },
    });
  }
  return { minor, owed };
}

/**
 * A payment of partner fees owed, from the collection account where the
 * customers paid them: Dr payable:partner-fees (the partner) / Cr cash:collection. Once per bank
 * reference. Under dual control (`ledger.partnerFees.pay`, lib/operations/commands/finance.ts): this
 * runs when a second admin approves, which records the audit entry; never above what is owed,
 * checked here with the partner's account locked.
 */
export async function recordPartnerFeePayment(tx: Tx, input: PartnerFeePayment & { now: Date }): Promise<{ owedBefore: bigint; paid: bigint }> {
  const { minor, owed } = await checkPartnerFeePayment(tx, input, { lock: true });
  await effectsOf(tx).ledger.post(
    posting({
      sourceKey: `partner-fee-payment:${input.bankReference}`,
      kind: "partner.fees.paid",
      memo: `Partner fees paid to ${input.partnerId}`,
      reference: input.bankReference,
      lines: [
        { account: "payable:partner-fees", currency: input.currency, partnerId: input.partnerId, debit: minor },
        { account: "cash:collection", currency: input.currency, credit: minor },
      ],
      now: input.now,
    }),
  );
  return { owedBefore: owed, paid: minor };
}
