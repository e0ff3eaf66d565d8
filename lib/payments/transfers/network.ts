import { z } from "zod";
import { eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { transfers } from "@/db/schema";
import { addSeconds } from "@/lib/platform/clock";
import { DomainError } from "@/lib/platform/errors";
import { defineJob } from "@/lib/platform/jobs/define";
import { dedupeKey } from "@/lib/platform/jobs/queue";
import { effectsOf } from "@/lib/platform/unit-of-work";
import type { PayoutRejection } from "@/lib/payments/payouts/reject-reasons";
import { payoutProvider } from "@/lib/payments/providers/payout";
import { lockTransfer, transitionTransfer, type TransferRow } from "./records";
import { answerNetworkCancellation, pendingNetworkCancellation } from "./network-cancellations";
import type { NetworkCancellationTrigger } from "./network-cancellation-state-machine";
import { startRefund } from "./refunds";
import type { TransferTrigger } from "./state-machine";

/**
 * The payout network. The sandbox network moves a funded transfer funded → topay → reqpay → paid,
 * one step every NETWORK_STEP_DELAY_MS (0: only POST /v1/sandbox/transfers/{id}/advance moves it),
 * and answers cancellation requests through the sandbox endpoint. The file rail (lib/payments/payouts,
 * pain.001 out, pain.002 in) moves transfers with handToNetwork, markInProgress, confirmPaid and
 * rejectPayout below; operators answer cancellations with resolveNetworkCancellation.
 */
const STEP: Record<string, TransferTrigger> = { funded: "network.toPay", topay: "network.requestPay", reqpay: "network.paid" };
const TARGET: Record<string, TransferTrigger> = { topay: "network.toPay", reqpay: "network.requestPay", paid: "network.paid" };

async function scheduleStep(tx: Tx, transfer: TransferRow, now: Date): Promise<void> {
  // Only a network that moves by itself (the sandbox one) is scheduled; the file rail has its own job.
  const delay = payoutProvider().selfStepMs();
  if (delay === null || !STEP[transfer.state]) return;
  // With the unit's other effects, in their statement at commit.
  await effectsOf(tx).jobs.schedule(
    "transfers.networkStep",
    { transferId: transfer.id, from: transfer.state },
    { runAt: addSeconds(now, delay / 1000), dedupeKey: dedupeKey("transfers.networkStep", transfer.id, transfer.state) },
  );
}

/**
 * A payout that completes while a cancellation request is pending (topay or reqpay; not while
 * held) answers that request: the outcome is NETWORK_ALREADY_PAID, never a paid transfer whose
 * cancellation stays NETWORK_CANCELLATION_PENDING for good.
 */
async function paidWhileCancelling(tx: Tx, transfer: TransferRow): Promise<boolean> {
  return (transfer.state === "topay" || transfer.state === "reqpay") && (await pendingCancellation(tx, transfer));
}

/** Hands a funded transfer to the network (the sandbox network schedules its steps; the file rail has its job). */
export async function startPayout(tx: Tx, funded: TransferRow, now: Date): Promise<void> {
  // The routed payout chooses its provider in a job of its own (lib/payments/payouts/routed.ts).
  if (payoutProvider().routed) {
    await effectsOf(tx).jobs.schedule("payouts.route", { transferId: funded.id }, { runAt: now, dedupeKey: dedupeKey("payouts.route", funded.id, "funded") });
    return;
  }
  await scheduleStep(tx, funded, now);
}

/**
 * The sandbox network's stand-in for a payout bank: sandbox only (the advance endpoint is sandbox
 * only too). In sandbox it also moves transfers that went into a file (PAYOUT_PROVIDER=pain001).
 */
function requireSandboxNetwork(): void {
  const provider = payoutProvider();
  if (provider.sandboxControls) return;
  throw new DomainError("internal.unavailable", {
    message: `The sandbox payout network is not configured on this service (payout provider: ${provider.name}).`,
  });
}

/** One network step to `to` (topay, reqpay or paid); the transition table refuses anything else. */
export async function advanceNetwork(tx: Tx, transfer: TransferRow, to: "topay" | "reqpay" | "paid", now: Date): Promise<TransferRow> {
  requireSandboxNetwork();
  if (to === "paid" && (await paidWhileCancelling(tx, transfer))) return resolveNetworkCancellation(tx, transfer, "NETWORK_ALREADY_PAID", now);
  const moved = await transitionTransfer(tx, transfer, TARGET[to], now);
  await scheduleStep(tx, moved, now);
  return moved;
}

/** File rail: the transfer's credit transfer went into a payout file (funded → topay). */
export async function handToNetwork(tx: Tx, funded: TransferRow, now: Date): Promise<TransferRow> {
  return transitionTransfer(tx, funded, "network.toPay", now);
}

/** File rail: the bank accepted the payment and is processing it (topay → reqpay; later states keep theirs). */
export async function markInProgress(tx: Tx, transfer: TransferRow, now: Date): Promise<TransferRow> {
  return transfer.state === "topay" ? transitionTransfer(tx, transfer, "network.requestPay", now) : transfer;
}

/** File rail: the bank settled the payment. A pending customer cancellation resolves as NETWORK_ALREADY_PAID. */
export async function confirmPaid(tx: Tx, transfer: TransferRow, now: Date): Promise<TransferRow> {
  if ((await paidWhileCancelling(tx, transfer)) || (transfer.state === "spended" && (await pendingCancellation(tx, transfer)))) {
    return resolveNetworkCancellation(tx, transfer, "NETWORK_ALREADY_PAID", now);
  }
  return transitionTransfer(tx, transfer, "network.paid", now);
}

/**
 * File rail: the bank refused or returned the payment, nothing reached the beneficiary. The
 * transfer is rejected with `rejection.code` (our code for the ISO reason) and its refund starts. A
 * pending customer cancellation is thereby answered: the money never left, so it succeeded.
 */
export async function rejectPayout(tx: Tx, transfer: TransferRow, rejection: PayoutRejection, now: Date): Promise<TransferRow> {
  const reason = rejection.code;
  if (await pendingCancellation(tx, transfer)) {
    await tx.update(transfers).set({ rejectionReason: reason }).where(eq(transfers.id, transfer.id));
    return resolveNetworkCancellation(tx, { ...transfer, rejectionReason: reason }, "NETWORK_CANCELLATION_SUCCESS", now, { rejectionReason: rejection });
  }
  // The partner learns why from the webhook itself, as from the transfer's detail.
  const moved = await transitionTransfer(tx, transfer, "network.rejected", now, { rejectionReason: reason }, [], { rejectionReason: rejection });
  await startRefund(tx, moved, now);
  return (await lockTransfer(tx, transfer.id))!;
}

async function pendingCancellation(tx: Tx, transfer: TransferRow): Promise<boolean> {
  return (await pendingNetworkCancellation(tx, transfer.id)) !== undefined;
}

export const networkStep = defineJob({
  kind: "transfers.networkStep",
  schema: z.object({ transferId: z.string(), from: z.string() }),
  run: async (tx, { payload, now }) => {
    const transfer = await lockTransfer(tx, payload.transferId);
    // Moved meanwhile (cancelled, held, advanced by hand): this step no longer applies.
    if (!transfer || transfer.state !== payload.from || !STEP[transfer.state] || payoutProvider().selfStepMs() === null) return;
    if (transfer.state === "reqpay" && (await paidWhileCancelling(tx, transfer)))
      return void (await resolveNetworkCancellation(tx, transfer, "NETWORK_ALREADY_PAID", now));
    await transitionTransfer(tx, transfer, STEP[transfer.state], now).then((moved) => scheduleStep(tx, moved, now));
  },
});

export type NetworkCancellationOutcome = "NETWORK_CANCELLATION_SUCCESS" | "NETWORK_ALREADY_PAID" | "NETWORK_IN_PROGRESS_RETRY_ALLOWED";

/** Each answer as the transfer's trigger and the request's (network-cancellation-state-machine.ts). */
const CANCEL_TRIGGER: Record<NetworkCancellationOutcome, { transfer: TransferTrigger; request: NetworkCancellationTrigger }> = {
  NETWORK_CANCELLATION_SUCCESS: { transfer: "network.cancellationSucceeded", request: "network.succeeded" },
  NETWORK_ALREADY_PAID: { transfer: "network.alreadyPaid", request: "network.alreadyPaid" },
  NETWORK_IN_PROGRESS_RETRY_ALLOWED: { transfer: "network.retryAllowed", request: "network.retryAllowed" },
};

/** The network's answer to a pending cancellation (spec 3.1: observed by polling). */
export async function resolveNetworkCancellation(
  tx: Tx,
  transfer: TransferRow,
  outcome: NetworkCancellationOutcome,
  now: Date,
  /** What the event carries beyond the state: the bank's rejection when a pain.002 RJCT answered the cancellation. */
  eventData: Record<string, unknown> = {},
) {
  const pending = await pendingNetworkCancellation(tx, transfer.id);
  if (!pending) {
    throw new DomainError("transfer.stateInvalid", {
      message: "No network cancellation is pending for this transfer.",
      details: { currentState: transfer.state },
    });
  }
  // The transfer's machine first: it refuses an answer its state cannot take before the request moves.
  const moved = await transitionTransfer(tx, transfer, CANCEL_TRIGGER[outcome].transfer, now, {}, [], eventData);
  await answerNetworkCancellation(tx, pending, CANCEL_TRIGGER[outcome].request, now);
  if (outcome === "NETWORK_CANCELLATION_SUCCESS") await startRefund(tx, moved, now);
  return (await lockTransfer(tx, transfer.id))!;
}
