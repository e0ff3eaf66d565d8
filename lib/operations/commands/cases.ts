/**
 * Commands on a compliance case and its suspicious-activity report: taken, assigned, investigated,
 * closed, noted, linked to a transfer, its customer flagged; the report rewritten, approved by a
 * second analyst, and filed.
 */
import { z } from "zod";
import {
  addNote,
  assignCase,
  closeCase,
  investigateCase,
  linkToCase,
  lockComplianceCase,
  setRiskFlag,
  approveReport,
  editReport,
  fileReport,
  reportAuthors,
  CASE_OUTCOMES,
  RISK_FLAGS,
} from "@/lib/compliance";
import { DomainError } from "@/lib/platform/errors";
import { operatorByEmail } from "@/lib/operations/operators/records";
import { command } from "./command";

const caseInput = z.object({ caseId: z.string().min(1) });

export const takeCase = command({
  name: "complianceCase.take",
  role: "reviewer",
  input: caseInput,
  run: async ({ tx, operator, now }, p) => {
    const before = await lockComplianceCase(tx, p.caseId);
    const c = await assignCase(tx, { caseId: p.caseId, assignee: operator, now });
    return {
      targetType: "complianceCase",
      targetId: c.id,
      before: { assignee: before.assigneeEmail },
      after: { assignee: c.assigneeEmail },
      notice: `Case ${c.id} is yours.`,
    };
  },
});

/** A case handed to another active operator, named by their e-mail. */
export const assignCaseTo = command({
  name: "complianceCase.assign",
  role: "reviewer",
  input: caseInput.extend({ email: z.string().trim().email() }),
  run: async ({ tx, now }, p) => {
    const assignee = await operatorByEmail(tx, p.email);
    if (!assignee || assignee.disabledAt) throw new DomainError("validation.fieldInvalid", { message: `No active operator ${p.email}.` });
    const before = await lockComplianceCase(tx, p.caseId);
    const c = await assignCase(tx, { caseId: p.caseId, assignee, now });
    return {
      targetType: "complianceCase",
      targetId: c.id,
      before: { assignee: before.assigneeEmail },
      after: { assignee: c.assigneeEmail },
      notice: `Case ${c.id} assigned to ${c.assigneeEmail}.`,
    };
  },
});

export const investigateComplianceCase = command({
  name: "complianceCase.investigate",
  role: "reviewer",
  input: caseInput,
  run: async ({ tx, operator, now }, p) => {
    const c = await investigateCase(tx, { caseId: p.caseId, operator, now });
    return {
      targetType: "complianceCase",
      targetId: c.id,
      before: { state: "OPEN" },
      after: { state: c.state, assignee: c.assigneeEmail },
      notice: `Case ${c.id} is under investigation.`,
    };
  },
});

/** A case closed with its narrative (the audit reason): risk confirmed drafts the suspicious-activity report. */
export const closeComplianceCase = command({
  name: "complianceCase.close",
  role: "reviewer",
  input: caseInput.extend({ outcome: z.enum(CASE_OUTCOMES), narrative: z.string() }),
  run: async ({ tx, operator, now }, p) => {
    const done = await closeCase(tx, { caseId: p.caseId, outcome: p.outcome, narrative: p.narrative, operator, now });
    return {
      action: `complianceCase.close.${p.outcome === "RISK_CONFIRMED" ? "riskConfirmed" : "falsePositive"}`,
      targetType: "complianceCase",
      targetId: done.case.id,
      before: { state: "INVESTIGATING" },
      after: { state: done.case.state, outcome: done.case.outcome, ...(done.report ? { reportId: done.report.id, reportDueOn: done.report.dueOn } : {}) },
      notice: done.report
        ? `Case ${done.case.id} closed as risk confirmed; report ${done.report.id} drafted, due ${done.report.dueOn}.`
        : `Case ${done.case.id} closed as a false positive.`,
    };
  },
});

export const addCaseNote = command({
  name: "complianceCase.note",
  role: "reviewer",
  input: caseInput.extend({ body: z.string() }),
  run: async ({ tx, operator, now }, p) => {
    const note = await addNote(tx, { caseId: p.caseId, body: p.body, operator, now });
    return { targetType: "complianceCase", targetId: p.caseId, after: { noteId: note.id }, notice: "Note added." };
  },
});

/** A transfer linked to the case, with why (the alert's summary and the audit reason). */
export const linkTransferToCase = command({
  name: "complianceCase.link",
  role: "reviewer",
  input: caseInput.extend({ transferId: z.string().trim().min(1), summary: z.string() }),
  run: async ({ tx, operator, now }, p) => {
    const { alert } = await linkToCase(tx, { caseId: p.caseId, transferId: p.transferId, summary: p.summary, operator, now });
    return {
      targetType: "complianceCase",
      targetId: p.caseId,
      after: { alertId: alert.id, transferId: p.transferId },
      notice: `Transfer ${p.transferId} linked.`,
    };
  },
});

export const flagCustomerRisk = command({
  name: "customer.riskFlag",
  role: "reviewer",
  input: caseInput.extend({ flag: z.enum(RISK_FLAGS) }),
  run: async ({ tx, operator, now }, p) => {
    const c = await lockComplianceCase(tx, p.caseId);
    await setRiskFlag(tx, { customerId: c.customerId, flag: p.flag, caseId: c.id, by: operator.email, now });
    return { targetType: "customer", targetId: c.customerId, after: { flag: p.flag, caseId: c.id }, notice: `Customer flagged ${p.flag}.` };
  },
});

export const rewriteReport = command({
  name: "suspiciousActivityReport.edit",
  role: "reviewer",
  input: z.object({ reportId: z.string().min(1), narrative: z.string() }),
  run: async ({ tx, operator, now }, p) => {
    const r = await editReport(tx, { reportId: p.reportId, narrative: p.narrative, operator, now });
    return { targetType: "suspiciousActivityReport", targetId: r.id, after: { status: r.status }, notice: `Report ${r.id} saved.` };
  },
});

/**
 * Four eyes on a report: a second analyst (reviewer or admin) who neither drafted nor rewrote it
 * approves it before it is filed; the server refuses an author (403). Not a dual-control proposal:
 * the draft is already the maker's proposal, and the approver must differ from its authors, not
 * only from whoever clicks.
 */
export const approveSuspiciousActivityReport = command({
  name: "suspiciousActivityReport.approve",
  role: "reviewer",
  input: z.object({ reportId: z.string().min(1) }),
  run: async ({ tx, operator, now }, p) => {
    const r = await approveReport(tx, { reportId: p.reportId, operator, now });
    return {
      targetType: "suspiciousActivityReport",
      targetId: r.id,
      before: { status: "DRAFTED", authors: reportAuthors(r) },
      after: { status: r.status, approvedBy: r.approvedByEmail },
      notice: `Report ${r.id} approved: it may now be filed.`,
    };
  },
});

export const fileSuspiciousActivityReport = command({
  name: "suspiciousActivityReport.file",
  role: "reviewer",
  input: z.object({ reportId: z.string().min(1), authorityReference: z.string() }),
  run: async ({ tx, operator, now }, p) => {
    const r = await fileReport(tx, { reportId: p.reportId, authorityReference: p.authorityReference, operator, now });
    return {
      targetType: "suspiciousActivityReport",
      targetId: r.id,
      before: { status: "APPROVED", approvedBy: r.approvedByEmail },
      after: { status: r.status, authorityReference: r.authorityReference },
      notice: `Report ${r.id} filed (${r.authorityReference}).`,
    };
  },
});
