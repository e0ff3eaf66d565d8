"use server";

import { eq } from "drizzle-orm";
import { z } from "zod";
import { operators } from "@/db/schema";
import { addNote, assignCase, closeCase, investigateCase, linkToCase, setRiskFlag, lockComplianceCase } from "@/lib/cases/cases";
import { editReport, fileReport } from "@/lib/cases/reports";
import { CASE_OUTCOMES, RISK_FLAGS } from "@/lib/cases/state-machine";
import { consoleAction } from "@/lib/console/action";
import { DomainError } from "@/lib/errors";

// Compliance cases (issue 22): reviewers and admins work them; every action is audited in its unit of work.
const caseId = z.string().min(1);
const text = (max: number) => z.string().trim().min(3).max(max);

export const takeCase = consoleAction("reviewer", z.object({ caseId }), async ({ tx, input, operator, now, audit }) => {
  const before = await lockComplianceCase(tx, input.caseId);
  const c = await assignCase(tx, { caseId: input.caseId, assignee: operator, now });
  await audit.record({
    action: "complianceCase.take",
    targetType: "complianceCase",
    targetId: c.id,
    before: { assignee: before.assigneeEmail },
    after: { assignee: c.assigneeEmail },
  });
  return `Case ${c.id} is yours.`;
});

export const assignCaseTo = consoleAction("reviewer", z.object({ caseId, email: z.string().trim().email() }), async ({ tx, input, now, audit }) => {
  const [assignee] = await tx.select().from(operators).where(eq(operators.email, input.email.toLowerCase()));
  if (!assignee || assignee.disabledAt) throw new DomainError("validation.fieldInvalid", { message: `No active operator ${input.email}.` });
  const before = await lockComplianceCase(tx, input.caseId);
  const c = await assignCase(tx, { caseId: input.caseId, assignee, now });
  await audit.record({
    action: "complianceCase.assign",
    targetType: "complianceCase",
    targetId: c.id,
    before: { assignee: before.assigneeEmail },
    after: { assignee: c.assigneeEmail },
  });
  return `Case ${c.id} assigned to ${c.assigneeEmail}.`;
});

export const startInvestigation = consoleAction("reviewer", z.object({ caseId }), async ({ tx, input, operator, now, audit }) => {
  const c = await investigateCase(tx, { caseId: input.caseId, operator, now });
  await audit.record({
    action: "complianceCase.investigate",
    targetType: "complianceCase",
    targetId: c.id,
    before: { state: "OPEN" },
    after: { state: c.state, assignee: c.assigneeEmail },
  });
  return `Case ${c.id} is under investigation.`;
});

export const closeComplianceCase = consoleAction(
  "reviewer",
  z.object({ caseId, outcome: z.enum(CASE_OUTCOMES), narrative: text(5000) }),
  async ({ tx, input, operator, now, audit }) => {
    const done = await closeCase(tx, { caseId: input.caseId, outcome: input.outcome, narrative: input.narrative, operator, now });
    await audit.record({
      action: `complianceCase.close.${input.outcome === "RISK_CONFIRMED" ? "riskConfirmed" : "falsePositive"}`,
      targetType: "complianceCase",
      targetId: done.case.id,
      before: { state: "INVESTIGATING" },
      after: { state: done.case.state, outcome: done.case.outcome, ...(done.report ? { reportId: done.report.id, reportDueOn: done.report.dueOn } : {}) },
      reason: input.narrative,
    });
    return done.report
      ? `Case ${done.case.id} closed as risk confirmed; report ${done.report.id} drafted, due ${done.report.dueOn}.`
      : `Case ${done.case.id} closed as a false positive.`;
  },
);

export const addCaseNote = consoleAction("reviewer", z.object({ caseId, body: text(5000) }), async ({ tx, input, operator, now, audit }) => {
  const note = await addNote(tx, { caseId: input.caseId, body: input.body, operator, now });
  await audit.record({ action: "complianceCase.note", targetType: "complianceCase", targetId: input.caseId, after: { noteId: note.id } });
  return "Note added.";
});

export const linkTransferToCase = consoleAction(
  "reviewer",
  z.object({ caseId, transferId: z.string().trim().min(1), reason: text(500) }),
  async ({ tx, input, operator, now, audit }) => {
    const { alert } = await linkToCase(tx, { caseId: input.caseId, transferId: input.transferId, summary: input.reason, operator, now });
    await audit.record({
      action: "complianceCase.link",
      targetType: "complianceCase",
      targetId: input.caseId,
      after: { alertId: alert.id, transferId: input.transferId },
      reason: input.reason,
    });
    return `Transfer ${input.transferId} linked.`;
  },
);

export const flagCustomerRisk = consoleAction("reviewer", z.object({ caseId, flag: z.enum(RISK_FLAGS) }), async ({ tx, input, operator, now, audit }) => {
  const c = await lockComplianceCase(tx, input.caseId);
  await setRiskFlag(tx, { customerId: c.customerId, flag: input.flag, caseId: c.id, by: operator.email, now });
  await audit.record({ action: "customer.riskFlag", targetType: "customer", targetId: c.customerId, after: { flag: input.flag, caseId: c.id } });
  return `Customer flagged ${input.flag}.`;
});

export const rewriteReport = consoleAction("reviewer", z.object({ reportId: z.string().min(1), narrative: text(20000) }), async ({ tx, input, now, audit }) => {
  const r = await editReport(tx, { reportId: input.reportId, narrative: input.narrative, now });
  await audit.record({ action: "suspiciousActivityReport.edit", targetType: "suspiciousActivityReport", targetId: r.id, after: { status: r.status } });
  return `Report ${r.id} saved.`;
});

export const fileSuspiciousActivityReport = consoleAction(
  "reviewer",
  z.object({ reportId: z.string().min(1), authorityReference: z.string().trim().min(3).max(100) }),
  async ({ tx, input, operator, now, audit }) => {
    const r = await fileReport(tx, { reportId: input.reportId, authorityReference: input.authorityReference, operator, now });
    await audit.record({
      action: "suspiciousActivityReport.file",
      targetType: "suspiciousActivityReport",
      targetId: r.id,
      before: { status: "DRAFTED" },
      after: { status: r.status, authorityReference: r.authorityReference },
    });
    return `Report ${r.id} filed (${r.authorityReference}).`;
  },
);
