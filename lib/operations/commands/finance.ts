/**
 * Commands on the money the service holds: bank credits matched or returned, manual journals
 * posted, partner fees paid out. Each is always a second operator's to approve.
 */
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "@/db";
import { bankCredits } from "@/db/schema";
import {
  explainDifference,
  checkPartnerFeePayment,
  discardJournal,
  journalSummary,
  lockJournal,
  lockProposedJournal,
  postJournal,
  proposeJournal,
  recordPartnerFeePayment,
  changePeriod,
} from "@/lib/finance";
import {
  type ParsedStatement,
  importStatement,
  amountToReturn,
  executeBankCreditReturn as executeReturn,
  matchBankCredit as matchCredit,
  returnBankCredit as returnCredit,
} from "@/lib/payments";
import { money } from "@/lib/operations/console/format";
import { notFound } from "@/lib/platform/errors";
import { minorUnitExponent } from "@/lib/platform/money/currency";
import { Decimal } from "@/lib/platform/money/decimal";
import { command } from "./command";
import { partnerOf } from "./partners";

const creditInput = z.object({ creditId: z.string().min(1) });

async function creditOf(tx: Tx, creditId: string) {
  const [credit] = await tx.select().from(bankCredits).where(eq(bankCredits.id, creditId));
  if (!credit) throw notFound("bankCredit");
  return credit;
}

/** An unmatched bank credit matched to the transfer it pays. */
export const matchBankCredit = command({
  name: "bankCredit.match",
  role: "reviewer",
  input: creditInput.extend({ transferId: z.string().trim().min(1).max(64) }),
  subject: (p) => ({ type: "bankCredit", id: p.creditId }),
  describe: async (tx, p) => {
    const credit = await creditOf(tx, p.creditId);
    return {
      summary: `Match bank credit ${credit.bankReference} (${money(credit.amount, credit.currency)}) to transfer ${p.transferId}`,
      before: { state: credit.state, reason: credit.reason },
      after: { transferId: p.transferId, funds: money(credit.amount, credit.currency) },
    };
  },
  run: async ({ tx, operator, now }, p) => {
    const done = await matchCredit(tx, { creditId: p.creditId, transferId: p.transferId, operatorId: operator.id }, now);
    const excess = done.after.state === "EXCESS" ? ` ${done.excess} ${done.after.currency} over-paid stays to return.` : "";
    return {
      targetType: "bankCredit",
      targetId: p.creditId,
      before: { state: done.before.state, reason: done.before.reason },
      after: { state: done.after.state, transferId: p.transferId, transferStatus: done.transferStatus, excess: done.excess },
      notice: `Credit ${done.after.bankReference} funded transfer ${p.transferId} (now ${done.transferStatus}).${excess}`,
    };
  },
});

/** A bank credit (or an over-payment's excess) returned to the payer. */
export const returnBankCredit = command({
  name: "bankCredit.return",
  role: "reviewer",
  input: creditInput,
  subject: (p) => ({ type: "bankCredit", id: p.creditId }),
  describe: async (tx, p) => {
    const credit = await creditOf(tx, p.creditId);
    // What goes back (an over-payment's excess, not the whole credit), as the return will record it.
    const returned = amountToReturn(credit);
    const whole = returned === new Decimal(credit.amount).toFixed(minorUnitExponent(credit.currency));
    const what = whole ? `bank credit ${credit.bankReference}` : `the excess of bank credit ${credit.bankReference} (${money(credit.amount, credit.currency)})`;
    return {
      summary: `Return ${money(returned, credit.currency)} to the payer: ${what}`,
      before: { state: credit.state, amount: credit.amount, toReturn: returned },
      after: { state: "RETURN_REQUESTED", returned },
    };
  },
  run: async ({ tx, operator, now }, p) => {
    const done = await returnCredit(tx, { creditId: p.creditId, operatorId: operator.id }, now);
    return {
      targetType: "bankCredit",
      targetId: p.creditId,
      before: { state: done.before.state, reason: done.before.reason },
      after: { state: done.after.state, returned: done.returned },
      notice: `Credit ${done.after.bankReference}: ${done.returned} ${done.after.currency} to return to the payer.`,
    };
  },
});

type JournalLine = Parameters<typeof proposeJournal>[1]["lines"][number];

/** A line of a manual journal as asked: a house account, one side an amount (proposeJournal checks the whole). */
const journalLine = z.object({
  account: z.string().min(1),
  currency: z.string().trim().toUpperCase(),
  partnerId: z.string().trim().nullish(),
  debit: z.string().trim(),
  credit: z.string().trim(),
});

/**
 * A manual journal posted to the ledger by a second operator. The asker gives its memo and lines;
 * they are recorded as a PROPOSED journal (checked balanced, house accounts only, audited
 * ledger.journal.propose), which the input (and a proposal) names.
 */
export const postManualJournal = command({
  name: "ledger.journal.post",
  role: "admin",
  input: z.object({ journalId: z.string().min(1) }),
  staged: {
    input: z.object({ memo: z.string().trim().min(3).max(500), reference: z.string().trim().max(140).nullish(), lines: z.array(journalLine) }),
    stage: async ({ tx, operator, now }, asked) => {
      // proposeJournal refuses anything but a house account, with the line named.
      const lines = asked.lines.map((l) => ({ ...l, account: l.account as JournalLine["account"], partnerId: l.partnerId || null }));
      const journal = await proposeJournal(tx, { memo: asked.memo, reference: asked.reference, lines, operator, now });
      return { journalId: journal.id };
    },
  },
  subject: (p) => ({ type: "manualJournal", id: p.journalId }),
  describe: async (tx, p) => {
    const journal = await lockProposedJournal(tx, p.journalId);
    return {
      summary: `Post manual journal ${journal.id}, "${journal.memo}": ${journalSummary(journal)}`,
      before: { state: journal.state },
      after: { state: "POSTED", lines: journal.lines },
    };
  },
  run: async ({ tx, operator, now }, p) => {
    const posted = await postJournal(tx, { id: p.journalId, operator, now });
    return {
      targetType: "manualJournal",
      targetId: posted.id,
      before: { state: "PROPOSED" },
      after: { state: posted.state, lines: posted.lines, reference: posted.reference },
      notice: `Journal ${posted.id} posted to the ledger.`,
    };
  },
  // A journal whose posting was declined is never posted: it is discarded with its proposal.
  onDecline: async (tx, p, { operator, now }) => {
    const journal = await lockJournal(tx, p.journalId);
    if (journal.state === "PROPOSED") await discardJournal(tx, { id: journal.id, operator, now });
  },
});

/**
 * Partner fees paid out of the collection account: never above what the partner is owed in that
 * currency (checked when proposed and again, with the partner's account locked, when approved).
 */
export const payPartnerFees = command({
  name: "ledger.partnerFees.pay",
  role: "admin",
  input: z.object({
    partnerId: z.string().trim().min(1),
    currency: z.string().trim().toUpperCase().length(3),
    amount: z
      .string()
      .trim()
      .regex(/^\d+(\.\d+)?$/, "a plain decimal (25.00)"),
    bankReference: z.string().trim().min(1).max(140),
  }),
  subject: (p) => ({ type: "partner", id: p.partnerId }),
  describe: async (tx, p) => {
    const { owed } = await checkPartnerFeePayment(tx, p);
    return {
      summary: `Pay ${money(p.amount, p.currency)} of partner fees to ${(await partnerOf(tx, p.partnerId)).name} from the collection account, bank reference ${p.bankReference}`,
      before: { owedMinor: owed.toString(), currency: p.currency },
      after: { paid: money(p.amount, p.currency), bankReference: p.bankReference },
    };
  },
  run: async ({ tx, now }, p) => {
    const done = await recordPartnerFeePayment(tx, { ...p, now });
    return {
      targetType: "partner",
      targetId: p.partnerId,
      before: { owedMinor: done.owedBefore.toString(), currency: p.currency },
      after: { owedMinor: (done.owedBefore - done.paid).toString(), currency: p.currency, amount: p.amount, bankReference: p.bankReference },
      notice: `Payment of ${p.amount} ${p.currency} to ${p.partnerId} recorded.`,
    };
  },
});

/** A camt.053 statement (read by the adapter before the transaction) imported: its credits matched or queued. */
export const importBankStatement = command({
  name: "bankStatement.import",
  role: "reviewer",
  input: z.custom<ParsedStatement>((v) => typeof v === "object" && v !== null && "credits" in v, "a statement read from a camt.053 file"),
  run: async ({ tx, now }, statement) => {
    const report = await importStatement(tx, statement, now);
    return {
      targetType: "bankStatement",
      targetId: statement.messageId || "(no MsgId)",
      after: { ...report },
      notice: `Statement ${statement.messageId}: ${report.entries} credits, ${report.matched} matched, ${report.unmatched} to the queue, ${report.duplicates} already imported.`,
    };
  },
});

/** The second step of a return: the bank executed it; its reference is recorded and the return posted. */
export const executeBankCreditReturn = command({
  name: "bankCredit.returnExecuted",
  role: "reviewer",
  input: creditInput.extend({ bankReference: z.string().trim().min(1).max(140) }),
  run: async ({ tx, operator, now }, p) => {
    const done = await executeReturn(tx, { creditId: p.creditId, bankReference: p.bankReference, operatorId: operator.id }, now);
    return {
      targetType: "bankCredit",
      targetId: p.creditId,
      before: { state: done.before.state },
      after: { state: done.after.state, returned: done.returned, returnBankReference: p.bankReference },
      notice: `Credit ${done.after.bankReference}: ${done.returned} ${done.after.currency} returned (bank reference ${p.bankReference}).`,
    };
  },
});

/** A month closed (once it is over) or reopened, with the reason; a closed month takes no posting. */
export const changeLedgerPeriod = command({
  name: "ledger.period.change",
  role: "admin",
  input: z.object({ period: z.string().trim(), trigger: z.enum(["close", "reopen"]) }),
  run: async ({ tx, operator, now }, p) => {
    const { row, before } = await changePeriod(tx, { period: p.period, trigger: p.trigger, operator, now });
    return {
      action: `ledger.period.${p.trigger}`,
      targetType: "ledger_period",
      targetId: row.period,
      before: { state: before },
      after: { state: row.state },
      notice: `${row.period} is now ${row.state}.`,
    };
  },
});

/** A difference between the bank's statement and the ledger explained (a timing difference, a bank error being chased...). */
export const explainStatementDifference = command({
  name: "ledger.reconciliation.explain",
  role: "admin",
  input: z.object({ id: z.string().min(1), explanation: z.string() }),
  run: async ({ tx, operator, now }, p) => {
    const done = await explainDifference(tx, { id: p.id, explanation: p.explanation, operator, now });
    return {
      targetType: "statement_balance",
      targetId: done.id,
      before: { state: done.before },
      after: { state: done.after },
      notice: "Difference explained.",
    };
  },
});
