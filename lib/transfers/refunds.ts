import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "@/db";
import { transfers } from "@/db/schema";
import { addSeconds } from "@/lib/clock";
import { DomainError } from "@/lib/errors";
import { defineJob } from "@/lib/jobs/define";
import { dedupeKey, enqueue } from "@/lib/jobs/queue";
import { isSandboxProvider } from "@/lib/providers";
import { lockTransfer, type TransferRow } from "./records";
import type { RefundRecord } from "./details";
import { postRefundPaid } from "./postings";
import { REFUND_STATUSES, refundMachine, type RefundTrigger } from "./refund-state-machine";

/** Sandbox refund provider: each step (submitted, settled) takes this long. */
const STEP_SECONDS = 1;

/**
 * RefundDetail as responses show it (spec 2.8: refundStatus, estimatedRefundCompletionBy,
 * refundMethod). The stored record also keeps refundInitiatedAt and refundCompletedAt for
 * operators; they are not part of the contract.
 */
export function refundView(refund: RefundRecord | null) {
  if (!refund) return null;
  const { refundStatus, estimatedRefundCompletionBy, refundMethod } = refund;
  return { refundStatus, estimatedRefundCompletionBy, refundMethod };
}

/**
 * Starts the refund of a cancelled funded transfer (spec 3.1): PENDING now, then PROCESSING and
 * COMPLETED as the provider advances, each a durable job. Original payment method only (spec 9).
 */
export async function startRefund(tx: Tx, transfer: TransferRow, now: Date): Promise<RefundRecord> {
  const refund: RefundRecord = {
    refundStatus: refundMachine.next("none", "create").to,
    refundMethod: "ORIGINAL_PAYMENT_METHOD",
    refundInitiatedAt: now.toISOString(),
    estimatedRefundCompletionBy: addSeconds(now, 3 * 86400).toISOString(),
  };
  await tx.update(transfers).set({ refund }).where(eq(transfers.id, transfer.id));
  // The production "operator" provider: the refund waits in the console's "Refunds due" queue
  // until an operator pays it from the bank and records it (moveRefund).
  if (!isSandboxProvider("refunds")) return refund;
  await enqueue(
    tx,
    "transfers.refundStep",
    { transferId: transfer.id, from: refund.refundStatus },
    { runAt: addSeconds(now, STEP_SECONDS), dedupeKey: dedupeKey("transfers.refundStep", transfer.id) },
  );
  return refund;
}

/**
 * The one way a refund changes status (the sandbox provider's steps, an operator's record): the
 * refund machine decides (or refuses with refund.stateInvalid), and COMPLETED posts the refund's
 * payment to the ledger in the same transaction. The transfer must be locked by the caller.
 */
export async function moveRefund(
  tx: Tx,
  transfer: TransferRow,
  trigger: RefundTrigger,
  now: Date,
  details: Pick<RefundRecord, "bankReference" | "failureReason"> = {},
): Promise<RefundRecord> {
  const refund = transfer.refund;
  if (!refund) throw new DomainError("refund.stateInvalid", { message: "This transfer has no refund.", details: { currentState: transfer.state } });
  const next = refundMachine.next(refund.refundStatus, trigger).to;
  const updated: RefundRecord = { ...refund, ...details, refundStatus: next, ...(next === "COMPLETED" ? { refundCompletedAt: now.toISOString() } : {}) };
  await tx.update(transfers).set({ refund: updated }).where(eq(transfers.id, transfer.id));
  if (next === "COMPLETED") await postRefundPaid(tx, transfer, now);
  return updated;
}

export const advanceRefund = defineJob({
  kind: "transfers.refundStep",
  // `from`: the status this step advances; a duplicate of a step already taken does nothing
  // (jobs enqueued before it was recorded carry none and advance whatever the status is).
  schema: z.object({ transferId: z.string(), from: z.enum(REFUND_STATUSES).optional() }),
  run: async (tx, { payload, now }) => {
    const transfer = await lockTransfer(tx, payload.transferId);
    const refund = transfer?.refund;
    if (!transfer || !refund || !isSandboxProvider("refunds")) return;
    if (payload.from && payload.from !== refund.refundStatus) return;
    const trigger = refund.refundStatus === "PENDING" ? "provider.submitted" : refund.refundStatus === "PROCESSING" ? "provider.succeeded" : null;
    if (!trigger) return;
    const next = (await moveRefund(tx, transfer, trigger, now)).refundStatus;
    if (next !== "COMPLETED") {
      await enqueue(
        tx,
        "transfers.refundStep",
        { transferId: transfer.id, from: next },
        { runAt: addSeconds(now, STEP_SECONDS), dedupeKey: dedupeKey("transfers.refundStep", transfer.id, next) },
      );
    }
  },
});
