/**
 * Network cancellation lifecycle (spec 3.1: a cancel in topay or reqpay asks the payout network;
 * spec 2.9 CancellationOutcome). A request is PENDING until the network answers: the money came
 * back (SUCCEEDED: the transfer is cancelled and refunded), it was already paid (ALREADY_PAID), or
 * the network could not stop it yet (RETRY_ALLOWED: the customer may ask again, a new request).
 * Each state's `outcome` is the CancellationOutcome the partner reads in the transfer's detail.
 */
import { defineMachine, NONE } from "@/lib/platform/state-machine/define";
import { NETWORK_CANCELLATION_STATES, type NetworkCancellationState } from "@/db/schema/refunds";
export { NETWORK_CANCELLATION_STATES, type NetworkCancellationState } from "@/db/schema/refunds";

export const NETWORK_CANCELLATION_TRIGGERS = ["customer.requested", "network.succeeded", "network.alreadyPaid", "network.retryAllowed"] as const;
export type NetworkCancellationTrigger = (typeof NETWORK_CANCELLATION_TRIGGERS)[number];

/** CancellationOutcome (spec 2.9) of each state: what the transfer's cancellation detail shows. */
export const NETWORK_CANCELLATION_OUTCOME = {
  PENDING: "NETWORK_CANCELLATION_PENDING",
  SUCCEEDED: "NETWORK_CANCELLATION_SUCCESS",
  ALREADY_PAID: "NETWORK_ALREADY_PAID",
  RETRY_ALLOWED: "NETWORK_IN_PROGRESS_RETRY_ALLOWED",
} as const satisfies Record<NetworkCancellationState, string>;

export const networkCancellationMachine = defineMachine<NetworkCancellationState, NetworkCancellationTrigger>({
  name: "network cancellation",
  states: NETWORK_CANCELLATION_STATES,
  triggers: NETWORK_CANCELLATION_TRIGGERS,
  // An answer to a request that is not pending (answered already, or none): the transfer's conflict code.
  refusedCode: "transfer.stateInvalid",
  transitions: [
    { from: [NONE], trigger: "customer.requested", to: "PENDING", outcome: "NETWORK_CANCELLATION_PENDING", notes: "cancel in topay or reqpay" },
    { from: ["PENDING"], trigger: "network.succeeded", to: "SUCCEEDED", outcome: "NETWORK_CANCELLATION_SUCCESS", notes: "transfer canceled; refund starts" },
    { from: ["PENDING"], trigger: "network.alreadyPaid", to: "ALREADY_PAID", outcome: "NETWORK_ALREADY_PAID", notes: "transfer paid" },
    {
      from: ["PENDING"],
      trigger: "network.retryAllowed",
      to: "RETRY_ALLOWED",
      outcome: "NETWORK_IN_PROGRESS_RETRY_ALLOWED",
      notes: "a new request may follow",
    },
  ],
});
