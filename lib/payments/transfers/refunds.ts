import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "@/db";
import { newId } from "@/db/ids";
import { refunds, refundStateHistory } from "@/db/schema";
import { addSeconds } from "@/lib/platform/clock";
import { DomainError } from "@/lib/platform/errors";
import { effectsOf } from "@/lib/platform/unit-of-work";
import { defineJob } from "@/lib/platform/jobs/define";
import { dedupeKey } from "@/lib/platform/jobs/queue";
import { refundProvider } from "@/lib/payments/providers/refunds";
import { businessDaysAfter } from "@/lib/payments/delivery/estimates";
import { corridorOfTransfer } from "@/lib/payments/corridors/corridors";
import { lockTransfer, type TransferRow } from "./records";
import { fromMinor } from "@/lib/finance";
import { postClaimRefundsDeducted, postRefundPaid, postWriteOffReversed, writtenOffShortfall } from "./postings";
import { refundableOf } from "./refundable";
import { REFUND_STATUSES, refundMachine, type RefundTrigger } from "./refund-state-machine";
import { Decimal } from "@/lib/platform/money/decimal";
import { toWireAmount } from "@/lib/platform/money/format";

/**
 * The one module that writes refunds.state: every move goes through refundMachine
 * with its history row; COMPLETED and FAILED reach the partner as refund.completed and
 * refund.failed events (webhooks).
 */

export type RefundRow = typeof refunds.$inferSelect;

/** The latest a refund completes, in business days of the origin country. */
export const REFUND_BUSINESS_DAYS = 3;

/**
 * RefundDetail as responses show it (spec 2.8: refundStatus, estimatedRefundCompletionBy,
 * refundMethod). The row also keeps initiatedAt, completedAt, bankReference and failureReason for
 * operators; they are not part of the contract.
 */
export function refundView(
  refund: Pick<RefundRow, "state" | "estimatedCompletionBy" | "refundMethod" | "amount"> | null | undefined,
  transfer: Pick<TransferRow, "totalCustomerCost" | "originCurrency">,
) {
  if (!refund) return null;
  return {
    refundStatus: refund.state,
    estimatedRefundCompletionBy: refund.estimatedCompletionBy.toISOString(),
    refundMethod: refund.refundMethod,
    // Ours: every refund gives back everything the customer paid, fees included
    // (a shortfall written off when it funded was never paid: refunds.amount leaves it out).
    refundAmount: refund.amount === null ? transfer.totalCustomerCost : toWireAmount(new Decimal(refund.amount)),
    refundCurrency: transfer.originCurrency,
  };
}

async function recordHistory(tx: Tx, refund: RefundRow, trigger: RefundTrigger, now: Date): Promise<void> {
  const h = refundStateHistory;
  await tx.insert(h).values({
    id: newId("rfh"),
    refundId: refund.id,
    seq: sql`(select coalesce(max(${h.seq}), 0) + 1 from ${h} where ${h.refundId} = ${refund.id})`,
    state: refund.state,
    trigger,
    transitionedAt: now,
  });
}

/** The transfer's refund, locked; undefined when it has none. */
export async function lockRefund(tx: Tx, transferId: string): Promise<RefundRow | undefined> {
  const [row] = await tx.select().from(refunds).where(eq(refunds.transferId, transferId)).for("update");
  return row;
}

/**
 * Starts the refund of a cancelled funded transfer (spec 3.1): PENDING now, then PROCESSING and
 * COMPLETED as the provider advances, each a durable job. Original payment method only (spec 9).
 * It gives back what the customer paid less what claim refunds already owe or paid
 * (./refundable.ts); null when that is nothing.
 */
export async function startRefund(tx: Tx, transfer: TransferRow, now: Date): Promise<RefundRow | null> {
  const step = refundMachine.next("none", "create");
  // Funded short within the tolerance: the customer gets back what they paid (not the total) and
  // the write-off is reversed, in the same transaction as the refund.
  const shortfall = await writtenOffShortfall(tx, transfer);
  await postWriteOffReversed(tx, transfer, shortfall, now);
  const refundable = await refundableOf(tx, transfer);
  // The transition owed the whole of what was paid; what claim refunds gave already is taken back
  // out of the refund due (their cost recovered), so refund-due ends at what is still to pay.
  await postClaimRefundsDeducted(tx, transfer, refundable.paid - refundable.left, now);
  if (refundable.left === 0n) return null;
  const amount = fromMinor(refundable.left, transfer.originCurrency);
  const [refund] = await tx
    .insert(refunds)
    .values({
      id: newId("rfd"),
      transferId: transfer.id,
      subscriptionId: transfer.subscriptionId,
      state: step.to,
      refundMethod: "ORIGINAL_PAYMENT_METHOD",
      amount,
      initiatedAt: now,
      // Regulation E 1005.34(b): a cancelled transfer is refunded within 3 business days.
      estimatedCompletionBy: businessDaysAfter(transfer.corridor, now, REFUND_BUSINESS_DAYS, corridorOfTransfer(transfer)),
      stateChangedAt: now,
      createdAt: now,
    })
    .returning();
  await recordHistory(tx, refund, step.trigger, now);
  // A provider that moves by itself gets its step scheduled; otherwise the refund waits in the
  // console's "Refunds due" queue until an operator pays it from the bank and records it (moveRefund).
  const providerStep = refundProvider().nextStep(refund.state);
  if (providerStep) {
    await effectsOf(tx).jobs.schedule(
      "transfers.refundStep",
      { transferId: transfer.id, from: refund.state },
      { runAt: addSeconds(now, providerStep.afterSeconds), dedupeKey: dedupeKey("transfers.refundStep", transfer.id) },
    );
  }
  return refund;
}

/**
 * The one way a refund changes status (the sandbox provider's steps, an operator's record): the
 * refund machine decides (or refuses with refund.stateInvalid); COMPLETED posts the refund's
 * payment to the ledger in the same transaction; COMPLETED and FAILED are events for the partner.
 * The transfer must be locked by the caller.
 */
export async function moveRefund(
  tx: Tx,
  transfer: TransferRow,
  trigger: RefundTrigger,
  now: Date,
  details: { bankReference?: string; failureReason?: string } = {},
): Promise<RefundRow> {
  const refund = await lockRefund(tx, transfer.id);
  if (!refund) throw new DomainError("refund.stateInvalid", { message: "This transfer has no refund.", details: { currentState: transfer.state } });
  const next = refundMachine.next(refund.state, trigger).to;
  const [moved] = await tx
    .update(refunds)
    .set({
      state: next,
      stateChangedAt: now,
      ...(details.bankReference !== undefined ? { bankReference: details.bankReference } : {}),
      ...(details.failureReason !== undefined ? { failureReason: details.failureReason } : {}),
      ...(next === "COMPLETED" ? { completedAt: now } : {}),
    })
    .where(eq(refunds.id, refund.id))
    .returning();
  await recordHistory(tx, moved, trigger, now);
  if (next === "COMPLETED") await postRefundPaid(tx, transfer, moved.amount, now, moved.bankReference);
  if (next === "COMPLETED" || next === "FAILED") {
    // The partner learns the outcome, never the reason (operators' words: docs/decisions.md).
    await effectsOf(tx).events.emit({
      subscriptionId: moved.subscriptionId,
      eventType: next === "COMPLETED" ? "refund.completed" : "refund.failed",
      data: {
        transferId: transfer.id,
        refundStatus: next,
        refundMethod: moved.refundMethod,
        ...(next === "COMPLETED" ? { refundCompletedAt: now.toISOString() } : {}),
      },
      now,
    });
  }
  return moved;
}

export const advanceRefund = defineJob({
  kind: "transfers.refundStep",
  // `from`: the status this step advances; a duplicate of a step already taken does nothing
  // (jobs enqueued before it was recorded carry none and advance whatever the status is).
  schema: z.object({ transferId: z.string(), from: z.enum(REFUND_STATUSES).optional() }),
  run: async (tx, { payload, now }) => {
    const transfer = await lockTransfer(tx, payload.transferId);
    const refund = transfer && (await lockRefund(tx, transfer.id));
    if (!transfer || !refund) return;
    if (payload.from && payload.from !== refund.state) return;
    // The provider's step from here (none: an operator's provider, or a status it does not move).
    const step = refundProvider().nextStep(refund.state);
    if (!step) return;
    const next = (await moveRefund(tx, transfer, step.trigger, now)).state;
    const following = refundProvider().nextStep(next);
    if (following) {
      await effectsOf(tx).jobs.schedule(
        "transfers.refundStep",
        { transferId: transfer.id, from: next },
        { runAt: addSeconds(now, following.afterSeconds), dedupeKey: dedupeKey("transfers.refundStep", transfer.id, next) },
      );
    }
  },
});
