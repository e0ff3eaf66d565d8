import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "@/db";
import { transfers } from "@/db/schema";
import { addSeconds } from "@/lib/clock";
import { defineJob } from "@/lib/jobs/define";
import { dedupeKey, enqueue } from "@/lib/jobs/queue";
import { isSandboxProvider } from "@/lib/providers";
import { lockTransfer, type TransferRow } from "./records";
import type { RefundRecord } from "./details";
import { refundMachine } from "./refund-state-machine";

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
  // Without a real refund rail (production "none", until issue 12) the refund stays PENDING for
  // operators: the sandbox provider never completes it.
  if (!isSandboxProvider("refunds")) return refund;
  await enqueue(
    tx,
    "transfers.refundStep",
    { transferId: transfer.id },
    { runAt: addSeconds(now, STEP_SECONDS), dedupeKey: dedupeKey("transfers.refundStep", transfer.id) },
  );
  return refund;
}

export const advanceRefund = defineJob({
  kind: "transfers.refundStep",
  schema: z.object({ transferId: z.string() }),
  run: async (tx, { payload, now }) => {
    const transfer = await lockTransfer(tx, payload.transferId);
    const refund = transfer?.refund;
    if (!transfer || !refund || !isSandboxProvider("refunds")) return;
    const trigger = refund.refundStatus === "PENDING" ? "provider.submitted" : refund.refundStatus === "PROCESSING" ? "provider.succeeded" : null;
    if (!trigger) return;
    const next = refundMachine.next(refund.refundStatus, trigger).to;
    await tx
      .update(transfers)
      .set({ refund: { ...refund, refundStatus: next, ...(next === "COMPLETED" ? { refundCompletedAt: now.toISOString() } : {}) } })
      .where(eq(transfers.id, transfer.id));
    if (next !== "COMPLETED") {
      await enqueue(
        tx,
        "transfers.refundStep",
        { transferId: transfer.id },
        { runAt: addSeconds(now, STEP_SECONDS), dedupeKey: dedupeKey("transfers.refundStep", transfer.id, next) },
      );
    }
  },
});
