/**
 * Customer status (spec 2.9 meanings, 3.3; decisions 4). The spec fixes only PENDING until KYC
 * completes and KYC rejection to BLOCKED; the rest is chosen here so that no automatic signal
 * ever loosens a status: leaving BLOCKED or entering CLOSED takes an operator.
 * Refusals are 409 customer.statusInvalid (not a spec code; not yet in lib/platform/errors.ts).
 */
import { defineMachine, NONE } from "@/lib/platform/state-machine/define";
import { CUSTOMER_STATUSES, type CustomerStatus } from "@/db/schema/customers";
export { CUSTOMER_STATUSES, type CustomerStatus } from "@/db/schema/customers";

export const CUSTOMER_TRIGGERS = [
  "profile.submitted",
  "kyc.approved",
  "kyc.rejected",
  "kyc.remediationRequired",
  "screening.hit",
  "screening.closeMatch",
  "operator.setStatus",
] as const;
export type CustomerTrigger = (typeof CUSTOMER_TRIGGERS)[number];

/**
 * The customers who may move money (spec 3.5): create and accept quotes, and pass a transfer's
 * fast-check. The one rule for "may this customer move money"; submit and confirm are stricter
 * still (VALID only, lib/identity/customers/gating.ts), and the profile's transactability is spec 2.2's own
 * wording (RESTRICTED included, lib/identity/customers/profile.ts).
 */
export const MONEY_MOVING_STATUSES = ["VALID", "MONITORED"] as const satisfies readonly CustomerStatus[];

export function customerMayMoveMoney(status: CustomerStatus): boolean {
  return (MONEY_MOVING_STATUSES as readonly CustomerStatus[]).includes(status);
}

/** Statuses an operator may set (ctx.target of operator.setStatus). */
export const OPERATOR_STATUSES = ["VALID", "MONITORED", "RESTRICTED", "BLOCKED", "CLOSED"] as const satisfies readonly CustomerStatus[];

const OPEN = ["PENDING", "VALID", "MONITORED", "RESTRICTED", "BLOCKED"] as const satisfies readonly CustomerStatus[];

export const customerStatusMachine = defineMachine<CustomerStatus, CustomerTrigger>({
  name: "customer",
  states: CUSTOMER_STATUSES,
  triggers: CUSTOMER_TRIGGERS,
  refusedCode: "customer.statusInvalid",
  refusals: [
    // Decisions 4: profile resubmission after PENDING is 409 customer.profileLocked.
    {
      from: ["VALID", "MONITORED", "RESTRICTED", "BLOCKED"],
      trigger: "profile.submitted",
      code: "customer.profileLocked",
      message: "The profile can no longer be changed.",
    },
  ],
  transitions: [
    { from: [NONE], trigger: "profile.submitted", to: "PENDING" },
    { from: ["PENDING"], trigger: "profile.submitted", to: "unchanged", notes: "resubmission while PENDING updates the profile" },
    // KYC verdicts (decisions 4 sandbox outcomes). A KYC session runs only for PENDING or
    // RESTRICTED customers (spec 2.3 purposes), so approval applies there; it never unblocks.
    { from: ["PENDING", "RESTRICTED"], trigger: "kyc.approved", to: "VALID" },
    { from: ["PENDING", "RESTRICTED"], trigger: "kyc.rejected", to: "BLOCKED" },
    { from: ["BLOCKED"], trigger: "kyc.rejected", to: "unchanged" },
    // A periodic review may also ask a VALID or MONITORED customer for remediation.
    { from: ["PENDING", "VALID", "MONITORED", "RESTRICTED"], trigger: "kyc.remediationRequired", to: "RESTRICTED" },
    // Sanctions screening after profile submit (spec 4.1 rule 1).
    { from: ["PENDING", "VALID", "MONITORED", "RESTRICTED"], trigger: "screening.hit", to: "BLOCKED" },
    { from: ["BLOCKED"], trigger: "screening.hit", to: "unchanged" },
    { from: ["VALID"], trigger: "screening.closeMatch", to: "MONITORED" },
    // PENDING must not become transactable by a close match: the caller keeps the flag and
    // applies screening.closeMatch again after kyc.approved. Stricter statuses stay.
    { from: ["PENDING"], trigger: "screening.closeMatch", to: "unchanged", outcome: "MONITOR_AFTER_KYC" },
    { from: ["MONITORED", "RESTRICTED", "BLOCKED"], trigger: "screening.closeMatch", to: "unchanged" },
    // Operator console: any non-CLOSED status to any decided status; CLOSED is terminal.
    { from: OPEN, trigger: "operator.setStatus", to: "requested", targets: OPERATOR_STATUSES, notes: "operator only" },
  ],
});
