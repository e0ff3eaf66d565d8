import type { Tx } from "@/db";
import { addSeconds } from "@/lib/platform/clock";
import { DomainError } from "@/lib/platform/errors";
import type { CancellationRecord } from "./details";
import { pendingNetworkCancellationInScope, requestNetworkCancellation } from "./network-cancellations";
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
  // One round trip: the transfer's lock, then the pending request read behind it, which
  // PostgreSQL starts once the lock is held (as when it was sent after). The expiry guard cannot
  // touch a request: only a transfer before funding expires, and none of those has one.
  const [found, pending] = await Promise.all([
    transferInScope(tx, input.subscriptionId, input.transferId, true),
    pendingNetworkCancellationInScope(tx, input.subscriptionId, input.transferId),
  ]);
  const row = await expireIfOverdue(tx, found, now);
  if (pending)
    throw new DomainError("transfer.stateInvalid", {
      message: "A network cancellation is already pending; poll the transfer.",
      details: { currentState: row.state },
    });
  const resolution = resolveCancel(row.state, row.priorState ?? undefined);
  const outcome = resolution.outcome;
  const toNetwork = outcome === "NETWORK_CANCELLATION_PENDING";
  // Decided now, or asked of the network: then the request's own row (and machine) holds the outcome.
  const asked = { cancellationReason: input.cancellationReason, cancelRequestedAt: now.toISOString() };
  const cancellation: CancellationRecord =
    outcome === "NETWORK_CANCELLATION_PENDING" ? asked : { ...asked, cancellationOutcome: outcome, canceledAt: now.toISOString() };
  const moved = await transitionTransfer(tx, row, "cancel", now, { cancellation });
  const expectedBy = addSeconds(now, NETWORK_CANCELLATION_SECONDS);
  if (toNetwork) await requestNetworkCancellation(tx, row.id, now, expectedBy);
  // Only a transfer in funding has an open session (one leaving funding ends its own, as the
  // deadline guard and a hold rely on too): no read for the others.
  if (row.state === "funding") await expireOpenFundingSessions(tx, row.id, now);
  const refund = resolution.refundStarts ? await startRefund(tx, moved, now) : null;
  const state = moved.state;
  return {
    transferId: moved.id,
    transferStatus: state,
    cancellationOutcome: resolution.outcome,
    canceledAt: toNetwork ? null : now.toISOString(),
    nextStep: nextStepFor(state),
    customerActionExpected: customerActionExpectedFor(state),
    ...(toNetwork ? { networkCancellationExpectedBy: expectedBy.toISOString() } : {}),
    refund: refundView(refund, moved),
  };
}
