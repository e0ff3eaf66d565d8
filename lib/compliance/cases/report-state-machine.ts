/**
 * Suspicious-activity report statuses: drafted when a case closes as
 * RISK_CONFIRMED, edited while DRAFTED, approved by a second analyst who is none of its authors
 * (four eyes: APPROVED, frozen), then FILED once with the authority's reference. A filed report is
 * final (and the database refuses any change to it). Refusals are 409
 * suspiciousActivityReport.stateInvalid.
 */
import { defineMachine, NONE } from "@/lib/platform/state-machine/define";
import { REPORT_STATUSES, type ReportStatus } from "@/db/schema/compliance-cases";
export { REPORT_STATUSES, type ReportStatus } from "@/db/schema/compliance-cases";

export const REPORT_TRIGGERS = ["case.riskConfirmed", "operator.edit", "operator.approve", "operator.file"] as const;
export type ReportTrigger = (typeof REPORT_TRIGGERS)[number];

export const reportMachine = defineMachine<ReportStatus, ReportTrigger>({
  name: "suspicious-activity report",
  states: REPORT_STATUSES,
  triggers: REPORT_TRIGGERS,
  refusedCode: "suspiciousActivityReport.stateInvalid",
  refusals: [
    {
      from: ["DRAFTED"],
      trigger: "operator.file",
      code: "suspiciousActivityReport.stateInvalid",
      message: "A second analyst must approve the report before it is filed.",
    },
  ],
  transitions: [
    { from: [NONE], trigger: "case.riskConfirmed", to: "DRAFTED", notes: "due 30 days after detection" },
    { from: ["DRAFTED"], trigger: "operator.edit", to: "unchanged", notes: "narrative rewritten" },
    { from: ["DRAFTED"], trigger: "operator.approve", to: "APPROVED", notes: "a second analyst, none of its authors (four eyes)" },
    { from: ["APPROVED"], trigger: "operator.file", to: "FILED", notes: "with the authority's reference" },
  ],
});
