/**
 * Compliance case states: an alert opens a case on its customer (OPEN) or joins
 * the one not yet closed; an analyst investigates it, then closes it with an outcome, FALSE_POSITIVE
 * or RISK_CONFIRMED (which drafts a suspicious-activity report). A closed case is final: the next
 * alert opens a new case. Refusals are 409 complianceCase.stateInvalid ("already decided" in the
 * console).
 */
import { defineMachine, NONE } from "@/lib/platform/state-machine/define";

export const COMPLIANCE_CASE_STATES = ["OPEN", "INVESTIGATING", "CLOSED"] as const;
export type ComplianceCaseState = (typeof COMPLIANCE_CASE_STATES)[number];

export const COMPLIANCE_CASE_TRIGGERS = ["alert.raised", "operator.investigate", "operator.closeFalsePositive", "operator.closeRiskConfirmed"] as const;
export type ComplianceCaseTrigger = (typeof COMPLIANCE_CASE_TRIGGERS)[number];

export const CASE_OUTCOMES = ["FALSE_POSITIVE", "RISK_CONFIRMED"] as const;
export type CaseOutcome = (typeof CASE_OUTCOMES)[number];

/** The analyst's two closing answers, as the console form sends them. */
export const CLOSE_TRIGGERS = {
  FALSE_POSITIVE: "operator.closeFalsePositive",
  RISK_CONFIRMED: "operator.closeRiskConfirmed",
} as const satisfies Record<CaseOutcome, ComplianceCaseTrigger>;

/**
 * Why a case exists or what it links:
 * - MONITORING_REVIEW / MONITORING_BLOCK: a monitoring evaluation's review or block outcome;
 * - SCREENING_CASE: a screening case opened (a close match) on the customer or a beneficiary;
 * - LIST_HIT: a list update found an existing customer or beneficiary listed (an exact match);
 * - COMPLIANCE_HOLD: a transfer put on compliance hold (spended);
 * - REVIEW_RULE: a transfer sent to onreview by the decisions-7 rules (MONITORED, threshold);
 * - SHADOW_ALERT: a monitoring alert raised in shadow mode (never opens a case);
 * - ANALYST_LINK: a transfer or beneficiary an analyst linked to the case by hand;
 * - PEP_MATCH: PEP screening found the customer on a PEP list (the customer is flagged PEP).
 */
export const ALERT_KINDS = [
  "MONITORING_REVIEW",
  "MONITORING_BLOCK",
  "SCREENING_CASE",
  "LIST_HIT",
  "COMPLIANCE_HOLD",
  "REVIEW_RULE",
  "SHADOW_ALERT",
  "ANALYST_LINK",
  "PEP_MATCH",
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

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

/** Risk flags an analyst sets on a customer's console record (RISK_CONFIRMED also by closing a case so). */
export const RISK_FLAGS = ["RISK_CONFIRMED", "HIGH_RISK", "PEP", "ADVERSE_MEDIA", "EXIT_RECOMMENDED"] as const;
export type RiskFlag = (typeof RISK_FLAGS)[number];

/** Who set a risk flag: an analyst (by hand, or by closing a case) or PEP screening (lib/compliance/cases/pep.ts). */
export const RISK_FLAG_SOURCES = ["analyst", "pep-screening"] as const;
export type RiskFlagSource = (typeof RISK_FLAG_SOURCES)[number];

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
