"use server";

import { z } from "zod";
import * as cases from "@/lib/operations/commands/cases";
import { CASE_OUTCOMES, RISK_FLAGS } from "@/lib/compliance/cases/state-machine";
import { consoleCommand } from "@/lib/operations/console/action";

// Compliance cases: reviewers and admins work them; each action is a command, audited by the runner.
const caseId = z.string().min(1);
const text = (max: number) => z.string().trim().min(3).max(max);

export const takeCase = consoleCommand("reviewer", z.object({ caseId }), (input) => ({ command: cases.takeCase, input }));

export const assignCaseTo = consoleCommand("reviewer", z.object({ caseId, email: z.string().trim().email() }), (input) => ({
  command: cases.assignCaseTo,
  input,
}));

export const startInvestigation = consoleCommand("reviewer", z.object({ caseId }), (input) => ({ command: cases.investigateComplianceCase, input }));

export const closeComplianceCase = consoleCommand("reviewer", z.object({ caseId, outcome: z.enum(CASE_OUTCOMES), narrative: text(5000) }), (input) => ({
  command: cases.closeComplianceCase,
  input,
  reason: input.narrative,
}));

export const addCaseNote = consoleCommand("reviewer", z.object({ caseId, body: text(5000) }), (input) => ({ command: cases.addCaseNote, input }));

export const linkTransferToCase = consoleCommand(
  "reviewer",
  z.object({ caseId, transferId: z.string().trim().min(1), reason: text(500) }),
  ({ caseId, transferId, reason }) => ({ command: cases.linkTransferToCase, input: { caseId, transferId, summary: reason }, reason }),
);

export const flagCustomerRisk = consoleCommand("reviewer", z.object({ caseId, flag: z.enum(RISK_FLAGS) }), (input) => ({
  command: cases.flagCustomerRisk,
  input,
}));

export const rewriteReport = consoleCommand("reviewer", z.object({ reportId: z.string().min(1), narrative: text(20000) }), (input) => ({
  command: cases.rewriteReport,
  input,
}));

// Four eyes: a second analyst, none of the report's authors, approves it before it is filed.
export const approveSuspiciousActivityReport = consoleCommand("reviewer", z.object({ reportId: z.string().min(1) }), (input) => ({
  command: cases.approveSuspiciousActivityReport,
  input,
}));

export const fileSuspiciousActivityReport = consoleCommand(
  "reviewer",
  z.object({ reportId: z.string().min(1), authorityReference: z.string().trim().min(3).max(100) }),
  (input) => ({ command: cases.fileSuspiciousActivityReport, input }),
);
