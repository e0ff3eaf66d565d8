/**
 * A claim's refund (docs/decisions.md "Claim refunds"): owed to the customer when
 * a claim is resolved with REFUND, paid when an operator records the bank's payment. Its own small
 * record, not a refunds row: a transfer has at most one refund and may already have one.
 */
import { defineMachine, NONE } from "@/lib/platform/state-machine/define";
import { CLAIM_REFUND_STATUSES, type ClaimRefundStatus } from "@/db/schema/claims";
export { CLAIM_REFUND_STATUSES, type ClaimRefundStatus } from "@/db/schema/claims";

export const CLAIM_REFUND_TRIGGERS = ["claim.resolvedRefund", "operator.paid"] as const;
export type ClaimRefundTrigger = (typeof CLAIM_REFUND_TRIGGERS)[number];

export const claimRefundMachine = defineMachine<ClaimRefundStatus, ClaimRefundTrigger>({
  name: "claimRefund",
  states: CLAIM_REFUND_STATUSES,
  triggers: CLAIM_REFUND_TRIGGERS,
  refusedCode: "refund.stateInvalid",
  transitions: [
    { from: [NONE], trigger: "claim.resolvedRefund", to: "OWED", notes: "resolveClaim with outcome REFUND: Dr expense:claims / Cr transfer:refund-due" },
    { from: ["OWED"], trigger: "operator.paid", to: "PAID", notes: "console Refunds page, dual control: Dr transfer:refund-due / Cr the refund's cash" },
  ],
});
