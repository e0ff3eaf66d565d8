/**
 * Screening case states: a close match opens a case; an operator decides it once, as a
 * false positive (cleared) or a true match (confirmed). A decided case is final: a later close
 * match on a changed entry opens a new case. Refusals are 409 screeningCase.stateInvalid (shown
 * in the console as "already decided").
 */
import { defineMachine, NONE } from "@/lib/platform/state-machine/define";
import { SCREENING_CASE_STATES, type ScreeningCaseState } from "@/db/schema/screening-cases";
export { SCREENING_CASE_STATES, type ScreeningCaseState } from "@/db/schema/screening-cases";

export const SCREENING_CASE_TRIGGERS = ["screening.closeMatch", "operator.falsePositive", "operator.trueMatch"] as const;
export type ScreeningCaseTrigger = (typeof SCREENING_CASE_TRIGGERS)[number];

/** The operator's two answers, as the console form sends them. */
export const CASE_DECISIONS = { FALSE_POSITIVE: "operator.falsePositive", TRUE_MATCH: "operator.trueMatch" } as const satisfies Record<
  string,
  ScreeningCaseTrigger
>;
export type CaseDecision = keyof typeof CASE_DECISIONS;

export const screeningCaseMachine = defineMachine<ScreeningCaseState, ScreeningCaseTrigger>({
  name: "screening case",
  states: SCREENING_CASE_STATES,
  triggers: SCREENING_CASE_TRIGGERS,
  refusedCode: "screeningCase.stateInvalid",
  transitions: [
    { from: [NONE], trigger: "screening.closeMatch", to: "OPEN", notes: "transfers to the subject stop: onreview at the fast-check, later ones held" },
    // A further close match (another entry, a rescreen) while open is added to the same case.
    { from: ["OPEN"], trigger: "screening.closeMatch", to: "unchanged", notes: "entries added" },
    { from: ["OPEN"], trigger: "operator.falsePositive", to: "FALSE_POSITIVE", notes: "held transfers restored; the pairs are not raised again" },
    { from: ["OPEN"], trigger: "operator.trueMatch", to: "TRUE_MATCH", notes: "subject BLOCKED, transfers rejected, funds blocked" },
  ],
});
