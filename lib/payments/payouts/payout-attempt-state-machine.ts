/**
 * A payout attempt: one credit transfer of a transfer in one pain.001 file (payout_file_items).
 * The transfer's own machine has no state for "rejected, being repaired"
 * (spec 3.1), so the transfer stays with the network (topay/reqpay) while its attempt records what
 * the bank said: a rejection of the destination waits for a repair (the operator or the
 * customer's app gives a new one), then goes into the next file as a new attempt; or the operator
 * refunds (the transfer is then rejected). A payment the bank returns after it was paid is RETURNED.
 */
import { defineMachine, NONE } from "@/lib/platform/state-machine/define";
import { PAYOUT_ATTEMPT_STATES, type PayoutAttemptState } from "@/db/schema/payout-files";
export { PAYOUT_ATTEMPT_STATES, type PayoutAttemptState } from "@/db/schema/payout-files";

export const PAYOUT_ATTEMPT_TRIGGERS = [
  "file.generated",
  "bank.rejected",
  "destination.repaired",
  "file.resent",
  "operator.refunded",
  "bank.returned",
  "route.failedOver",
] as const;
export type PayoutAttemptTrigger = (typeof PAYOUT_ATTEMPT_TRIGGERS)[number];

export const payoutAttemptMachine = defineMachine<PayoutAttemptState, PayoutAttemptTrigger>({
  name: "payout attempt",
  states: PAYOUT_ATTEMPT_STATES,
  triggers: PAYOUT_ATTEMPT_TRIGGERS,
  refusedCode: "transfer.stateInvalid",
  transitions: [
    { from: [NONE], trigger: "file.generated", to: "SENT", notes: "in a pain.001 file" },
    { from: ["SENT"], trigger: "bank.rejected", to: "REJECTED", notes: "pain.002 RJCT of the destination: waits for a repair or a refund" },
    // A second correction before the next file replaces the first.
    { from: ["REJECTED", "REPAIRED"], trigger: "destination.repaired", to: "REPAIRED", notes: "new destination recorded; goes into the next file" },
    { from: ["REPAIRED"], trigger: "file.resent", to: "RESENT", notes: "a new attempt (SENT) carries it" },
    { from: ["REJECTED", "REPAIRED"], trigger: "operator.refunded", to: "ABANDONED", notes: "the transfer is rejected; its refund starts" },
    { from: ["SENT"], trigger: "bank.returned", to: "RETURNED", notes: "returned after paid: the refund is owed" },
    // The routed payout: the bank's refusal is the provider try's to handle (repair, or the next provider).
    { from: ["SENT"], trigger: "route.failedOver", to: "ABANDONED", notes: "routed payout refused by the bank: its provider try decides what follows" },
  ],
});
