/**
 * Compliance case states: an alert opens a case on its customer (OPEN) or joins
 * the one not yet closed; an analyst investigates it, then closes it with an outcome, FALSE_POSITIVE
 * or RISK_CONFIRMED (which drafts a suspicious-activity report). A closed case is final: the next
 * alert opens a new case. Refusals are 409 complianceCase.stateInvalid ("already decided" in the
 * console).
 */
import { defineMachine, NONE } from "@/lib/platform/state-machine/define";
import { COMPLIANCE_CASE_STATES, type ComplianceCaseState, type CaseOutcome, type AlertKind } from "@/db/schema/compliance-cases";
export {
  COMPLIANCE_CASE_STATES,
  type ComplianceCaseState,
  CASE_OUTCOMES,
  type CaseOutcome,
  ALERT_KINDS,
  type AlertKind,
  RISK_FLAGS,
  type RiskFlag,
  RISK_FLAG_SOURCES,
  type RiskFlagSource,
} from "@/db/schema/compliance-cases";

export const COMPLIANCE_CASE_TRIGGERS = ["alert.raised", "operator.investigate", "operator.closeFalsePositive", "operator.closeRiskConfirmed"] as const;
export type ComplianceCaseTrigger = (typeof COMPLIANCE_CASE_TRIGGERS)[number];

/** The analyst's two closing answers, as the console form sends them. */
export const CLOSE_TRIGGERS = {
  FALSE_POSITIVE: "operator.closeFalsePositive",
  RISK_CONFIRMED: "operator.closeRiskConfirmed",
} as const satisfies Record<CaseOutcome, ComplianceCaseTrigger>;

export const ALERT_KIND_LABELS: Record<AlertKind, string> = {
  MONITORING_REVIEW: "Monitoring: review",
  MONITORING_BLOCK: "Monitoring: block",
  SCREENING_CASE: "Screening case",
  LIST_HIT: "List hit",
  COMPLIANCE_HOLD: "Compliance hold",
  REVIEW_RULE: "Review rule",
  SHADOW_ALERT: "Shadow alert",
  ANALYST_LINK: "Linked by an analyst",
  PEP_MATCH: "PEP list match",
};

export const complianceCaseMachine = defineMachine<ComplianceCaseState, ComplianceCaseTrigger>({
  name: "compliance case",
  states: COMPLIANCE_CASE_STATES,
  triggers: COMPLIANCE_CASE_TRIGGERS,
  refusedCode: "complianceCase.stateInvalid",
  transitions: [
    { from: [NONE], trigger: "alert.raised", to: "OPEN", notes: "due 30 days after detection" },
    // Later alerts join the case not yet closed (one per customer).
    { from: ["OPEN", "INVESTIGATING"], trigger: "alert.raised", to: "unchanged", notes: "alert added" },
    { from: ["OPEN"], trigger: "operator.investigate", to: "INVESTIGATING" },
    { from: ["INVESTIGATING"], trigger: "operator.closeFalsePositive", to: "CLOSED", outcome: "FALSE_POSITIVE" },
    {
      from: ["INVESTIGATING"],
      trigger: "operator.closeRiskConfirmed",
      to: "CLOSED",
      outcome: "RISK_CONFIRMED",
      notes: "a suspicious-activity report is drafted; the customer flagged RISK_CONFIRMED",
    },
  ],
});
