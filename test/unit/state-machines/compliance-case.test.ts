/** Compliance case and suspicious-activity report machines: expected data literal on purpose. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { reportMachine } from "@/lib/compliance/cases/report-state-machine";
import { complianceCaseMachine } from "@/lib/compliance/cases/state-machine";
import { checkExhaustively } from "./exhaustive";

test("compliance case: every (state, trigger) cell; alerts join a case not yet closed; a closed case is final", () => {
  const cells = checkExhaustively(complianceCaseMachine, {
    states: ["OPEN", "INVESTIGATING", "CLOSED"],
    triggers: ["alert.raised", "operator.investigate", "operator.closeFalsePositive", "operator.closeRiskConfirmed"],
    moves: [
      { from: "none", trigger: "alert.raised", to: "OPEN" },
      { from: "OPEN", trigger: "alert.raised", to: "OPEN" },
      { from: "INVESTIGATING", trigger: "alert.raised", to: "INVESTIGATING" },
      { from: "OPEN", trigger: "operator.investigate", to: "INVESTIGATING" },
      { from: "INVESTIGATING", trigger: "operator.closeFalsePositive", to: "CLOSED", outcome: "FALSE_POSITIVE" },
      { from: "INVESTIGATING", trigger: "operator.closeRiskConfirmed", to: "CLOSED", outcome: "RISK_CONFIRMED" },
    ],
    refusal: () => ({ code: "complianceCase.stateInvalid", status: 409 }),
  });
  assert.equal(cells, 4 * 4);
});

test("suspicious-activity report: drafted on a confirmed case, edited while drafted, approved by a second analyst, filed once", () => {
  const cells = checkExhaustively(reportMachine, {
    states: ["DRAFTED", "APPROVED", "FILED"],
    triggers: ["case.riskConfirmed", "operator.edit", "operator.approve", "operator.file"],
    moves: [
      { from: "none", trigger: "case.riskConfirmed", to: "DRAFTED" },
      { from: "DRAFTED", trigger: "operator.edit", to: "DRAFTED" },
      { from: "DRAFTED", trigger: "operator.approve", to: "APPROVED" },
      { from: "APPROVED", trigger: "operator.file", to: "FILED" },
    ],
    refusal: () => ({ code: "suspiciousActivityReport.stateInvalid", status: 409 }),
  });
  assert.equal(cells, 4 * 4);
});
