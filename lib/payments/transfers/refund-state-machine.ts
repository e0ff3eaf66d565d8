/**
 * Refund lifecycle (decisions 7: RefundStatus PENDING, PROCESSING, COMPLETED, FAILED; transitions
 * "not shown" in spec 3.4). A refund is created when a funded transfer is cancelled (spec 3.1) or a
 * network cancellation succeeds; it goes to the payment provider and ends COMPLETED or FAILED.
 * A FAILED refund is money still owed to the customer, so an operator may retry it. With the
 * production "operator" refunds provider nothing advances by itself: an operator pays the refund
 * from the bank and records it paid (with the bank reference) or failed in the console.
 */
import { defineMachine, NONE } from "@/lib/platform/state-machine/define";
import { REFUND_STATUSES, type RefundStatus } from "@/db/schema/refunds";
export { REFUND_STATUSES, type RefundStatus } from "@/db/schema/refunds";

export const REFUND_TRIGGERS = [
  "create",
  "provider.submitted",
  "provider.succeeded",
  "provider.failed",
  "operator.retry",
  "operator.paid",
  "operator.failed",
] as const;
export type RefundTrigger = (typeof REFUND_TRIGGERS)[number];

export const refundMachine = defineMachine<RefundStatus, RefundTrigger>({
  name: "refund",
  states: REFUND_STATUSES,
  triggers: REFUND_TRIGGERS,
  // Never reaches a customer response (refunds are driven by workers and operators).
  refusedCode: "refund.stateInvalid",
  transitions: [
    { from: [NONE], trigger: "create", to: "PENDING", notes: "ORIGINAL_PAYMENT_METHOD (spec 9)" },
    { from: ["PENDING"], trigger: "provider.submitted", to: "PROCESSING" },
    { from: ["PROCESSING"], trigger: "provider.succeeded", to: "COMPLETED" },
    // From PENDING as well: the provider may refuse the refund request outright.
    { from: ["PENDING", "PROCESSING"], trigger: "provider.failed", to: "FAILED" },
    { from: ["FAILED"], trigger: "operator.retry", to: "PENDING", notes: "operator console" },
    // The "operator" refunds provider (production): the operator's own record of the bank payment.
    { from: ["PENDING", "PROCESSING"], trigger: "operator.paid", to: "COMPLETED", notes: "bank reference recorded; posts refund.paid" },
    { from: ["PENDING", "PROCESSING"], trigger: "operator.failed", to: "FAILED", notes: "reason recorded" },
  ],
});
