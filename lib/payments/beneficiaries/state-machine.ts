/**
 * Beneficiary states (spec 3.2, decisions 5). Screening decides PENDING once; archive is one-way;
 * only an operator moves a beneficiary out of BLOCKED.
 */
import { DomainError } from "@/lib/platform/errors";
import { defineMachine, NONE } from "@/lib/platform/state-machine/define";
import { BENEFICIARY_STATES, type BeneficiaryState } from "@/db/schema/beneficiaries";
export { BENEFICIARY_STATES, type BeneficiaryState } from "@/db/schema/beneficiaries";

export const BENEFICIARY_TRIGGERS = ["create", "screening.valid", "screening.monitored", "screening.blocked", "archive", "operator.decide"] as const;
export type BeneficiaryTrigger = (typeof BENEFICIARY_TRIGGERS)[number];

/** States an operator may decide (ctx.target of operator.decide). */
export const OPERATOR_DECISIONS = ["VALID", "MONITORED", "BLOCKED"] as const satisfies readonly BeneficiaryState[];

export const beneficiaryMachine = defineMachine<BeneficiaryState, BeneficiaryTrigger>({
  name: "beneficiary",
  states: BENEFICIARY_STATES,
  triggers: BENEFICIARY_TRIGGERS,
  // No spec code exists for "screening result on an already screened beneficiary" and similar
  // internal misuses; 409 like the other state conflicts (decisions 8). Not in lib/platform/errors.ts yet.
  refusedCode: "beneficiary.stateInvalid",
  refusals: [
    // Archive is one-way (spec 3.2): every further move of an archived record says so.
    { from: ["ARCHIVED"], code: "beneficiary.archived", message: "The beneficiary is archived." },
    // Exit from BLOCKED is operator-only, the customer cannot archive it away (spec 3.2, decisions 5).
    { from: ["BLOCKED"], trigger: "archive", code: "beneficiary.archiveBlocked", message: "A blocked beneficiary cannot be archived." },
  ],
  transitions: [
    { from: [NONE], trigger: "create", to: "PENDING", notes: "202; asynchronous screening starts" },
    { from: ["PENDING"], trigger: "screening.valid", to: "VALID" },
    { from: ["PENDING"], trigger: "screening.monitored", to: "MONITORED" },
    { from: ["PENDING"], trigger: "screening.blocked", to: "BLOCKED" },
    // Rescreening after a new sanctions list version (lib/compliance/screening/rescreen-job.ts) tightens only.
    { from: ["VALID", "MONITORED"], trigger: "screening.blocked", to: "BLOCKED", notes: "rescreen" },
    { from: ["VALID"], trigger: "screening.monitored", to: "MONITORED", notes: "rescreen" },
    // Decisions 5: PENDING may be archived too (customer-side record cleanup of spec 3.2).
    { from: ["PENDING", "VALID", "MONITORED"], trigger: "archive", to: "ARCHIVED", notes: "200 {beneficiaryId, state, archivedAt}" },
    // Operator console: the only exit from BLOCKED, and re-decision of any live record.
    {
      from: ["PENDING", "VALID", "MONITORED", "BLOCKED"],
      trigger: "operator.decide",
      to: "requested",
      targets: OPERATOR_DECISIONS,
      notes: "operator only",
    },
  ],
});

/**
 * Use of a beneficiary in money-moving (quote creation, submit; spec 3.2 and 7): VALID and
 * MONITORED permit; PENDING is 403 beneficiary.stateInsufficient; BLOCKED and ARCHIVED are 403
 * beneficiary.stateBlocking. Details follow BeneficiaryStateDetails (spec 7).
 */
export function moneyMovementCheck(state: BeneficiaryState, beneficiaryId?: string): void {
  if (beneficiaryMayMoveMoney(state)) return;
  const pending = state === "PENDING";
  const remediationHint = pending ? "await_beneficiary_verification" : "select_different_beneficiary";
  throw new DomainError(pending ? "beneficiary.stateInsufficient" : "beneficiary.stateBlocking", {
    message: pending ? "The beneficiary is still being verified." : "This beneficiary cannot receive transfers; choose a different one.",
    hint: remediationHint,
    remediation: remediationHint,
    details: { ...(beneficiaryId !== undefined ? { beneficiaryId } : {}), currentState: state },
  });
}

/**
 * The beneficiaries money may be sent to (spec 3.2): the one rule for "may this beneficiary
 * receive money", used by quote, accept and submit (moneyMovementCheck), the fast-check, and the
 * rescreen, which walks exactly these (a stronger result can only tighten them).
 */
export const MONEY_MOVING_STATES = ["VALID", "MONITORED"] as const satisfies readonly BeneficiaryState[];

export function beneficiaryMayMoveMoney(state: BeneficiaryState): boolean {
  return (MONEY_MOVING_STATES as readonly BeneficiaryState[]).includes(state);
}
