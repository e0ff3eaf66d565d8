import { and, eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { bankCredits, fundingSessions } from "@/db/schema";
import { config } from "@/lib/platform/config";
import { DomainError, notFound, validationError } from "@/lib/platform/errors";
import { minorUnitExponent } from "@/lib/platform/money/currency";
import { Decimal } from "@/lib/platform/money/decimal";
import { amountDue } from "@/lib/payments/transfers/bank-transfer";
import { expireIfOverdue } from "@/lib/payments/transfers/deadline";
import { lockTransfer } from "@/lib/payments/transfers/records";
import { lockFundingSession } from "@/lib/payments/transfers/funding";
import { bankCreditMachine } from "./bank-credit-state-machine";
import { fundFromBankCredit } from "./fund";
import { shortfallTolerance } from "./match";
import { postCreditReturned, postShortfallWrittenOff } from "./postings";

export type BankCreditRow = typeof bankCredits.$inferSelect;

async function lockCredit(tx: Tx, creditId: string): Promise<BankCreditRow> {
  const [row] = await tx.select().from(bankCredits).where(eq(bankCredits.id, creditId)).for("update");
  if (!row) throw notFound("bankCredit");
  return row;
}

const refuse = (message: string) => validationError([{ field: "transferId", code: "validation.fieldInvalid", message }], "validation.fieldInvalid", message);

/**
 * An operator matches a queued credit to a transfer in funding: the credit must be in the
 * transfer's currency and cover the sum due, or fall short of it by at most the currency's
 * tolerance (the shortfall written off); it funds the transfer through the one
 * funding path. An over-payment's excess stays in suspense until returned (state EXCESS).
 */
export async function matchBankCredit(tx: Tx, input: { creditId: string; transferId: string; operatorId: string }, now: Date) {
  const credit = await lockCredit(tx, input.creditId);
  bankCreditMachine.next(credit.state, "operator.matched");
  const [open] = await tx
    .select({ id: fundingSessions.id })
    .from(fundingSessions)
    .where(and(eq(fundingSessions.transferId, input.transferId), eq(fundingSessions.state, "OPEN")));
  const locked = open ? await lockFundingSession(tx, open.id) : undefined;
  if (!locked) {
    const transfer = await lockTransfer(tx, input.transferId);
    if (!transfer) throw notFound("transfer");
    throw refuse(`Transfer ${transfer.id} is ${transfer.state}, not waiting for funding: only a transfer in funding can be paid by this credit.`);
  }
  const transfer = await expireIfOverdue(tx, locked.transfer, now);
  if (transfer.state !== "funding" || locked.session.expiresAt.getTime() <= now.getTime()) {
    throw new DomainError("funding.sessionExpired", {
      message: `Transfer ${transfer.id}'s funding session has expired: it can no longer be paid.`,
      keepChanges: transfer.state !== locked.transfer.state,
    });
  }
  if (credit.currency !== transfer.originCurrency)
    throw refuse(`The credit is in ${credit.currency}; transfer ${transfer.id} is paid in ${transfer.originCurrency}.`);
  const due = amountDue(transfer);
  const places = minorUnitExponent(credit.currency);
  const excess = new Decimal(credit.amount).minus(due);
  const tolerance = shortfallTolerance(config().BANK_CREDIT_SHORTFALL_TOLERANCE, credit.currency);
  if (excess.isNeg() && excess.negated().gt(tolerance)) {
    throw refuse(
      `The credit (${credit.amount} ${credit.currency}) is less than the ${due} ${credit.currency} due, by more than the ${tolerance} ${credit.currency} tolerance: return it instead.`,
    );
  }
  const funded = await fundFromBankCredit(tx, { session: locked.session, transfer }, now);
  const shortfall = excess.isNeg() ? excess.negated().toFixed(places) : null;
  if (shortfall) await postShortfallWrittenOff(tx, { bankReference: credit.bankReference, transferId: transfer.id, shortfall, currency: credit.currency }, now);
  const to = bankCreditMachine.next(credit.state, excess.gt(0) ? "operator.matchedOverpaid" : "operator.matched").to;
  const [after] = await tx
    .update(bankCredits)
    .set({
      state: to,
      transferId: transfer.id,
      appliedAmount: shortfall ? credit.amount : due,
      writtenOffAmount: shortfall,
      resolvedBy: input.operatorId,
      resolvedAt: to === "MATCHED" ? now : null,
    })
    .where(eq(bankCredits.id, credit.id))
    .returning();
  return {
    before: credit,
    after,
    transferStatus: funded.transferStatus,
    excess: (excess.isNeg() ? new Decimal(0) : excess).toFixed(places),
    writtenOff: shortfall,
  };
}

/** What a return sends back: the whole credit, or an over-payment's excess; once requested, the amount recorded then. */
export function amountToReturn(credit: BankCreditRow): string {
  if (credit.state === "RETURN_REQUESTED" && credit.returnedAmount) return credit.returnedAmount;
  const amount = new Decimal(credit.amount);
  const places = minorUnitExponent(credit.currency);
  return (credit.state === "EXCESS" && credit.appliedAmount ? amount.minus(credit.appliedAmount) : amount).toFixed(places);
}

/**
 * An operator returns a queued credit (or an over-payment's excess) to the payer: the first of
 * two steps. The return is requested (RETURN_REQUESTED, the amount fixed) and
 * listed until it is executed from the bank's own interface, with the payer's details from the
 * statement; executeBankCreditReturn then records the bank's reference and posts it.
 */
// `_now`: kept for callers (the console, dual control); the request writes no time of its own.
export async function returnBankCredit(tx: Tx, input: { creditId: string; operatorId: string }, _now: Date) {
  const credit = await lockCredit(tx, input.creditId);
  const to = bankCreditMachine.next(credit.state, "operator.returned").to;
  const returned = amountToReturn(credit);
  const [after] = await tx
    .update(bankCredits)
    .set({ state: to, returnedAmount: returned, resolvedBy: input.operatorId, resolvedAt: null })
    .where(eq(bankCredits.id, credit.id))
    .returning();
  return { before: credit, after, returned };
}

/**
 * The return was executed at the bank: its reference is recorded and the money leaves the books
 * (out of suspense, out of the collection account) in the same transaction.
 */
export async function executeBankCreditReturn(tx: Tx, input: { creditId: string; bankReference: string; operatorId: string }, now: Date) {
  const credit = await lockCredit(tx, input.creditId);
  const to = bankCreditMachine.next(credit.state, "operator.returnExecuted").to;
  const returned = amountToReturn(credit);
  await postCreditReturned(tx, { bankReference: credit.bankReference, amount: returned, currency: credit.currency }, now);
  const [after] = await tx
    .update(bankCredits)
    .set({ state: to, returnBankReference: input.bankReference, returnExecutedAt: now, resolvedBy: input.operatorId, resolvedAt: now })
    .where(eq(bankCredits.id, credit.id))
    .returning();
  return { before: credit, after, returned };
}
