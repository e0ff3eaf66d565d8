/**
 * Error claims (Regulation E 1005.33 error resolution): a customer reports an
 * error on a funded transfer; the provider investigates within 90 days and resolves it with an
 * outcome: NO_ERROR, REFUND (the amount to the customer) or RESEND (the transfer made again at no
 * cost). Every move is a claim.status.changed event (webhook).
 */
import { defineMachine, NONE } from "@/lib/platform/state-machine/define";
import { CLAIM_STATUSES, type ClaimStatus } from "@/db/schema/claims";
export { CLAIM_STATUSES, type ClaimStatus, CLAIM_TYPES, type ClaimType, CLAIM_OUTCOMES, type ClaimOutcome } from "@/db/schema/claims";

export const CLAIM_TRIGGERS = ["customer.report", "operator.investigate", "operator.resolve"] as const;
export type ClaimTrigger = (typeof CLAIM_TRIGGERS)[number];

export const claimMachine = defineMachine<ClaimStatus, ClaimTrigger>({
  name: "claim",
  states: CLAIM_STATUSES,
  triggers: CLAIM_TRIGGERS,
  refusedCode: "claim.stateInvalid",
  transitions: [
    { from: [NONE], trigger: "customer.report", to: "OPEN", notes: "POST /v1/core/transfers/{id}/claims, within 180 days of the date available" },
    { from: ["OPEN"], trigger: "operator.investigate", to: "INVESTIGATING", notes: "console" },
    // An operator may resolve straight away (an obvious answer) or after investigating.
    { from: ["OPEN", "INVESTIGATING"], trigger: "operator.resolve", to: "RESOLVED", notes: "console: outcome, amount and notice recorded" },
  ],
});
