/**
 * Commands on a transfer an operator asks for: out of review, in and out of a compliance hold, its
 * refund recorded, its payout repaired. Each locks the transfer through the runner (./locks.ts).
 */
import { and, eq, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "@/db";
import { payoutMethods, screeningCases, transfers } from "@/db/schema";
import { holdTransfer, refuseIfHeldForScreening, rejectHold as rejectHeldTransfer, refuseWhilePepApprovalPending } from "@/lib/compliance";
import {
  repairPayoutByOperator,
  stageOperatorRepair,
  lockClaimRefund,
  payClaimRefund,
  referenceRates,
  releaseTransfer,
  reviewTransfer,
  type TransferRow,
  lockRefund,
  moveRefund,
  transferMachine,
} from "@/lib/payments";
import { config } from "@/lib/platform/config";
import { money } from "@/lib/operations/console/format";
import { DomainError, notFound } from "@/lib/platform/errors";
import { Decimal } from "@/lib/platform/money/decimal";
import { command } from "./command";

const transferInput = z.object({ transferId: z.string().min(1) });
const onTransfer = (p: { transferId: string }) => ({ type: "transfer", id: p.transferId });
const lockTransfer = (p: { transferId: string }) => ({ transfer: p.transferId });

/** What a command that moved a transfer did: its audit entry (state before and after) and the operator's notice. */
function transferMoved(row: TransferRow, after: { state: string }, withPrior = false) {
  return {
    targetType: "transfer",
    targetId: row.id,
    before: withPrior ? { state: row.state, priorState: row.priorState } : { state: row.state },
    after: { state: after.state },
    notice: `Transfer ${row.id} is now ${after.state}.`,
  };
}

export async function transferOf(tx: Tx, transferId: string): Promise<TransferRow> {
  const [row] = await tx.select().from(transfers).where(eq(transfers.id, transferId));
  if (!row) throw notFound("transfer");
  return row;
}

/**
 * A transfer's origin amount in the dual-control currency at today's reference rate, or null
 * when no rate converts it (then a second operator is asked: the safe side).
 */
async function inControlCurrency(tx: Tx, row: TransferRow, now: Date): Promise<Decimal | null> {
  const to = config().DUAL_CONTROL_CURRENCY;
  const amount = new Decimal(row.originAmount);
  if (row.originCurrency === to) return amount;
  const rates = await referenceRates(tx);
  try {
    return amount.times(rates.rate({ from: row.originCurrency, to }, now));
  } catch {
    try {
      return amount.dividedBy(rates.rate({ from: to, to: row.originCurrency }, now));
    } catch {
      return null;
    }
  }
}

/** An open screening case on the transfer's customer or beneficiary: its release is never one operator's. */
async function inScreeningCase(tx: Tx, row: TransferRow): Promise<boolean> {
  const [open] = await tx
    .select({ id: screeningCases.id })
    .from(screeningCases)
    .where(
      and(
        eq(screeningCases.state, "OPEN"),
        or(
          and(eq(screeningCases.subjectType, "customer"), eq(screeningCases.subjectId, row.customerId)),
          and(eq(screeningCases.subjectType, "beneficiary"), eq(screeningCases.subjectId, row.beneficiaryId)),
          sql`${screeningCases.heldTransferIds} @> ${JSON.stringify([row.id])}::jsonb`,
        ),
      ),
    )
    .limit(1);
  return !!open;
}

/** A release at or above the threshold, or inside a screening case, waits for a second operator. */
async function releaseNeedsSecond(tx: Tx, p: { transferId: string }, now: Date): Promise<boolean> {
  const row = await transferOf(tx, p.transferId);
  if (await inScreeningCase(tx, row)) return true;
  const amount = await inControlCurrency(tx, row, now);
  return amount === null || amount.gte(config().DUAL_CONTROL_TRANSFER_THRESHOLD);
}

/** The transfer, refused now (as the machine refuses it) rather than at approval when it cannot take the move. */
async function transferFor(tx: Tx, transferId: string, trigger: "review.approved" | "compliance.restore") {
  const row = await transferOf(tx, transferId);
  if (!transferMachine.can(row.state, trigger)) transferMachine.next(row.state, trigger, { prior: row.priorState ?? undefined });
  return row;
}

/**
 * A transfer in review approved (→ validated): a large one, or one inside a screening case, by two
 * operators; a PEP's only after an admin approved the PEP.
 */
export const approveReview = command({
  name: "transfer.review.approve",
  role: "reviewer",
  input: transferInput,
  subject: onTransfer,
  locks: lockTransfer,
  needsSecondOperator: releaseNeedsSecond,
  describe: async (tx, p) => {
    const row = await transferFor(tx, p.transferId, "review.approved");
    await refuseWhilePepApprovalPending(tx, row.customerId);
    return {
      summary: `Approve transfer ${row.id} (${money(row.originAmount, row.originCurrency)}) out of review`,
      before: { state: row.state },
      after: { state: transferMachine.next(row.state, "review.approved").to },
    };
  },
  run: async ({ tx, now, locked: { transfer: row } }) => {
    // A PEP's transfer waits for the admin's approval of the PEP (lib/compliance/cases/pep.ts), here and at a proposal's approval.
    await refuseWhilePepApprovalPending(tx, row.customerId);
    return transferMoved(row, await reviewTransfer(tx, row, "APPROVE", now));
  },
});

/** A transfer in review rejected (→ rejected): one operator. */
export const rejectReview = command({
  name: "transfer.review.reject",
  role: "reviewer",
  input: transferInput,
  subject: onTransfer,
  locks: lockTransfer,
  run: async ({ tx, now, locked: { transfer: row } }) => {
    return transferMoved(row, await reviewTransfer(tx, row, "REJECT", now));
  },
});

/** A transfer put on compliance hold (from the customer page): admins. */
export const placeHold = command({
  name: "transfer.hold",
  role: "admin",
  input: transferInput,
  subject: onTransfer,
  locks: lockTransfer,
  run: async ({ tx, now, locked: { transfer: row } }) => {
    const after = await holdTransfer(tx, row, now);
    return {
      targetType: "transfer",
      targetId: row.id,
      before: { state: row.state },
      after: { state: after.state, priorState: after.priorState },
      notice: `Transfer ${row.id} is on hold (was ${row.state}).`,
    };
  },
});

/**
 * A compliance hold released: the transfer goes back to the state it was held in. At or above the
 * dual-control threshold, or inside a screening case, a second operator approves it. A hold a
 * screening case owns is refused: its money moves only through the case's decision.
 */
export const releaseHold = command({
  name: "transfer.hold.restore",
  role: "reviewer",
  input: transferInput,
  subject: onTransfer,
  locks: lockTransfer,
  needsSecondOperator: releaseNeedsSecond,
  describe: async (tx, p) => {
    const row = await transferFor(tx, p.transferId, "compliance.restore");
    await refuseIfHeldForScreening(tx, row);
    return {
      summary: `Release transfer ${row.id} (${money(row.originAmount, row.originCurrency)}) from hold back to ${row.priorState}`,
      before: { state: row.state, priorState: row.priorState },
      after: { state: row.priorState },
    };
  },
  run: async ({ tx, now, locked: { transfer: row } }) => {
    await refuseIfHeldForScreening(tx, row); // a case opened since it was proposed
    return transferMoved(row, await releaseTransfer(tx, row, "RESTORE", now), true);
  },
});

/** A compliance hold rejected: the transfer is rejected (and refunded when funded). Refused for a hold a screening case owns. */
export const rejectHold = command({
  name: "transfer.hold.reject",
  role: "reviewer",
  input: transferInput,
  subject: onTransfer,
  locks: lockTransfer,
  run: async ({ tx, now, locked: { transfer: row } }) => {
    return transferMoved(row, await rejectHeldTransfer(tx, row, now), true);
  },
});

/** The transfer's refund, or (claimRefundId) a claim refund of the transfer, recorded paid from the bank: always two admins. */
export const recordRefundPaid = command({
  name: "transfer.refund.paid",
  role: "admin",
  input: transferInput.extend({ bankReference: z.string().trim().min(1).max(140), claimRefundId: z.string().min(1).optional() }),
  // A claim refund is its own subject: it may wait for approval beside the transfer's refund.
  subject: (p) => (p.claimRefundId ? { type: "claimRefund", id: p.claimRefundId } : { type: "transfer", id: p.transferId }),
  locks: lockTransfer,
  describe: async (tx, p) => {
    const row = await transferOf(tx, p.transferId);
    if (p.claimRefundId) {
      const owed = await lockClaimRefund(tx, p.claimRefundId);
      if (!owed || owed.transferId !== row.id)
        throw new DomainError("refund.stateInvalid", { message: "This transfer has no such claim refund.", details: { claimRefundId: p.claimRefundId } });
      return {
        summary: `Record the claim refund ${owed.id} of transfer ${row.id} (${money(owed.amount, owed.currency)}) as paid, bank reference ${p.bankReference}`,
        before: { claimRefundStatus: owed.state },
        after: { claimRefundStatus: "PAID", bankReference: p.bankReference },
      };
    }
    const refund = await lockRefund(tx, row.id);
    if (!refund) throw new DomainError("refund.stateInvalid", { message: "This transfer has no refund.", details: { currentState: row.state } });
    return {
      summary: `Record the refund of transfer ${row.id} (${money(row.totalCustomerCost, row.originCurrency)}) as paid, bank reference ${p.bankReference}`,
      before: { refundStatus: refund.state },
      after: { refundStatus: "PAID", bankReference: p.bankReference },
    };
  },
  run: async ({ tx, now, locked: { transfer: row } }, p) => {
    if (p.claimRefundId) {
      const paid = await payClaimRefund(tx, { transfer: row, claimRefundId: p.claimRefundId, bankReference: p.bankReference, now });
      return {
        targetType: "transfer",
        targetId: row.id,
        before: { claimRefundId: paid.id, claimRefundStatus: "OWED" },
        after: { claimRefundId: paid.id, claimRefundStatus: paid.state, bankReference: p.bankReference },
        notice: `Claim refund ${paid.id} of ${row.id} is now ${paid.state}.`,
      };
    }
    const before = await lockRefund(tx, row.id);
    const after = await moveRefund(tx, row, "operator.paid", now, { bankReference: p.bankReference });
    return {
      targetType: "transfer",
      targetId: row.id,
      before: { refundStatus: before?.state ?? null },
      after: { refundStatus: after.state, bankReference: p.bankReference },
      notice: `Refund of ${row.id} is now ${after.state}.`,
    };
  },
});

const REFUND_OUTCOME = { FAILED: "operator.failed", RETRY: "operator.retry" } as const;

/** A refund recorded failed (the reason is the failure's), or a failed one put back in the queue: one admin. */
export const recordRefundOutcome = command({
  name: "transfer.refund.outcome",
  role: "admin",
  input: transferInput.extend({ outcome: z.enum(["FAILED", "RETRY"]), failureReason: z.string().optional() }),
  subject: onTransfer,
  locks: lockTransfer,
  run: async ({ tx, now, locked: { transfer: row } }, p) => {
    const before = await lockRefund(tx, row.id);
    const details = p.outcome === "FAILED" ? { failureReason: p.failureReason ?? "" } : {};
    const after = await moveRefund(tx, row, REFUND_OUTCOME[p.outcome], now, details);
    return {
      action: `transfer.refund.${p.outcome.toLowerCase()}`,
      targetType: "transfer",
      targetId: row.id,
      before: { refundStatus: before?.state ?? null },
      after: { refundStatus: after.state, ...details },
      notice: `Refund of ${row.id} is now ${after.state}.`,
    };
  },
});

/**
 * A transfer the bank rejected paid to a new destination: never one operator's. The asker gives
 * the destination the beneficiary gave; it is checked as at submit and staged as an encrypted
 * payout method (lib/payments/payouts/repair.ts), so the input (and a proposal) names its id only.
 */
export const repairPayout = command({
  name: "transfer.payout.repair",
  role: "admin",
  input: transferInput.extend({ payoutMethodId: z.string().min(1) }),
  staged: {
    input: transferInput.extend({
      methodType: z.string().min(1).max(40),
      destinationIdentifier: z.string().trim().min(1).max(64),
    }),
    stage: async ({ tx, now }, asked) => {
      const { methodType, destinationIdentifier } = asked;
      const method = await stageOperatorRepair(tx, { transferId: asked.transferId, payoutMethod: { methodType, destinationIdentifier }, now });
      return { transferId: asked.transferId, payoutMethodId: method.id };
    },
  },
  subject: onTransfer,
  describe: async (tx, p) => {
    const row = await transferOf(tx, p.transferId);
    const [method] = await tx
      .select({ masked: payoutMethods.destinationIdentifierMasked })
      .from(payoutMethods)
      .where(and(eq(payoutMethods.id, p.payoutMethodId), eq(payoutMethods.beneficiaryId, row.beneficiaryId)));
    if (!method) throw notFound("transfer");
    return {
      summary: `Pay transfer ${row.id} to a new destination ${method.masked} (the bank rejected the previous one)`,
      before: { payoutMethodId: row.payoutMethodId },
      after: { payoutMethodId: p.payoutMethodId, destinationIdentifierMasked: method.masked },
    };
  },
  run: async ({ tx, now }, p) => {
    const before = await transferOf(tx, p.transferId);
    const repaired = await repairPayoutByOperator(tx, { transferId: p.transferId, payoutMethodId: p.payoutMethodId, now });
    return {
      targetType: "transfer",
      targetId: p.transferId,
      before: { payoutMethodId: before.payoutMethodId },
      // The new destination masked only: the full identifier stays encrypted.
      after: { payoutMethodId: repaired.payoutMethod.payoutMethodId, destinationIdentifierMasked: repaired.payoutMethod.destinationIdentifierMasked },
      notice: `Transfer ${p.transferId}: new destination ${repaired.payoutMethod.destinationIdentifierMasked}; it goes into the next payout file.`,
    };
  },
});
