import type { Tx } from "@/db";
import { addSeconds } from "@/lib/clock";
import { DomainError } from "@/lib/errors";
import { expireIfOverdue } from "./deadline";
import { expireOpenFundingSessions } from "./funding-session-expiry";
import { transferInScope, transitionTransfer } from "./records";
import { refundView, startRefund } from "./refunds";
import { customerActionExpectedFor, nextStepFor, resolveCancel } from "./state-machine";

/** Spec 8: hint for when the network answers a cancellation request. */
const NETWORK_CANCELLATION_SECONDS = 60;

/**
 * POST /v1/core/transfers/{id}/cancel (spec 3.1, 4.1 rule 10): aborted before funding, canceled
 * with a refund when funded, a network cancellation request in topay/reqpay; from spended by the
 * prior state (the route answers 200 or 202 from cancellationOutcome). Never blocked by a partner suspension (spec 3.5).
 */
export async function cancelTransfer(tx: Tx, input: { subscriptionId: string; transferId: string; cancellationReason: string; now: Date }) {
  const { now } = input;
  const row = await expireIfOverdue(tx, await transferInScope(tx, input.subscriptionId, input.transferId, true), now);
  const pending = row.cancellation?.cancellationOutcome === "NETWORK_CANCELLATION_PENDING";
  if (pending)
    throw new DomainError("transfer.stateInvalid", {
      message: "A network cancellation is already pending; poll the transfer.",
      details: { currentState: row.state },
    });
  const resolution = resolveCancel(row.state, row.priorState ?? undefined);
  const cancellation = {
    cancellationOutcome: resolution.outcome,
    cancellationReason: input.cancellationReason,
    cancelRequestedAt: now.toISOString(),
    canceledAt: resolution.outcome === "NETWORK_CANCELLATION_PENDING" ? null : now.toISOString(),
    ...(resolution.outcome === "NETWORK_CANCELLATION_PENDING"
      ? { networkCancellationExpectedBy: addSeconds(now, NETWORK_CANCELLATION_SECONDS).toISOString() }
      : {}),
  };
  const moved = await transitionTransfer(tx, row, "cancel", now, { cancellation });
  await expireOpenFundingSessions(tx, row.id, now);
  const refund = resolution.refundStarts ? await startRefund(tx, moved, now) : null;
  const state = moved.state;
  return {
    transferId: moved.id,
    transferStatus: state,
    cancellationOutcome: resolution.outcome,
    canceledAt: cancellation.canceledAt,
    nextStep: nextStepFor(state),
    customerActionExpected: customerActionExpectedFor(state),
    ...(cancellation.networkCancellationExpectedBy ? { networkCancellationExpectedBy: cancellation.networkCancellationExpectedBy } : {}),
    refund: refundView(refund),
  };
}
