/**
 * Suspicious-activity reports: closing a case as RISK_CONFIRMED drafts one from
 * the case (subject, the linked transfers' amounts and dates, the typologies, the analyst's
 * narrative), due 30 days after detection; the analyst may rewrite the narrative while
 * it is DRAFTED; a second analyst, none of its authors (the drafter and whoever rewrote it),
 * approves it (four eyes: APPROVED, frozen); then it is recorded FILED with the authority's reference. Exported as JSON and CSV for
 * filing. Never deleted (kept at least five years): no code path here deletes, and the database
 * refuses a DELETE and any change to a FILED report. Console only.
 */
import { and, asc, eq, inArray, lt, ne } from "drizzle-orm";
import { stringify } from "csv-stringify/sync";
import type { Executor, Tx } from "@/db";
import { newId } from "@/db/ids";
import {
  complianceAlerts,
  customers,
  monitoringEvaluations,
  subscriptions,
  suspiciousActivityReports,
  transfers,
  type ReportAmount,
  type ReportSubject,
} from "@/db/schema";
import { DomainError, notFound } from "@/lib/platform/errors";
import { Decimal } from "@/lib/platform/money/decimal";
import { requestRating } from "@/lib/identity";
import { reportMachine } from "./report-state-machine";
import type { AlertKind } from "./state-machine";

export type ReportRow = typeof suspiciousActivityReports.$inferSelect;
type CaseRow = { id: string; customerId: string; detectedAt: Date; narrative: string | null };

/** Days from detection to filing (FinCEN: 30 calendar days, 31 CFR 1022.320(b)(3)). */
export const REPORT_DUE_DAYS = 30;

const dayAfter = (from: Date, days: number) => new Date(from.getTime() + days * 86_400_000).toISOString().slice(0, 10);
const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);

/** The customer as the report names them (the profile they submitted, and their first partner). */
async function subjectOf(tx: Executor, customerId: string): Promise<ReportSubject> {
  const [c] = await tx.select().from(customers).where(eq(customers.id, customerId));
  const [sub] = await tx
    .select({ partnerId: subscriptions.partnerId })
    .from(subscriptions)
    .where(eq(subscriptions.customerId, customerId))
    .orderBy(asc(subscriptions.createdAt))
    .limit(1);
  const p = (c?.profile ?? {}) as Record<string, unknown>;
  const a = (p.residenceAddress ?? {}) as Record<string, unknown>;
  const address = [a.addressLine1, a.addressLine2, a.postalCode, a.city, a.region, a.country].map(text).filter(Boolean).join(", ");
  return {
    customerId,
    partnerId: sub?.partnerId ?? null,
    firstName: text(p.firstName),
    lastName: text(p.lastName),
    dateOfBirth: text(p.dateOfBirth),
    nationality: text(p.nationality),
    residenceCountry: text(p.residenceCountry),
    address: address || null,
  };
}

/**
 * Alert kinds that name no typology of their own: monitoring's (the evaluation names them) and an
 * analyst's link (a transfer in the case, not a reason for it).
 */
const NOT_A_TYPOLOGY: ReadonlySet<AlertKind> = new Set(["MONITORING_REVIEW", "MONITORING_BLOCK", "SHADOW_ALERT", "ANALYST_LINK"]);

/**
 * The report's typologies: those that reached review or block in the live monitoring evaluations
 * of the case's linked transfers (in the partner's mode at the time: a typology detected in shadow
 * was still detected), oldest first, then the kinds of the case's other alerts (a screening case,
 * a list hit, a compliance hold, the decisions-7 review rules). A candidate set's evaluations
 * (a draft shadow-running) are not the live judgment and are left out.
 */
async function typologiesOf(tx: Executor, alerts: { kind: AlertKind }[], linked: { id: string }[]): Promise<string[]> {
  const evaluations = linked.length
    ? await tx
        .select({ typologies: monitoringEvaluations.typologies })
        .from(monitoringEvaluations)
        .where(
          and(
            inArray(
              monitoringEvaluations.transferId,
              linked.map((t) => t.id),
            ),
            eq(monitoringEvaluations.run, "live"),
          ),
        )
        .orderBy(asc(monitoringEvaluations.createdAt))
    : [];
  const reached = evaluations.flatMap((e) => e.typologies.filter((t) => t.outcome !== "pass").map((t) => t.typology));
  const kinds = alerts.map((a) => a.kind).filter((k) => !NOT_A_TYPOLOGY.has(k));
  return [...new Set([...reached, ...kinds])];
}

/** Drafts the report of a case just closed as RISK_CONFIRMED (called by closeCase, in its transaction). */
export async function draftReport(tx: Tx, closed: CaseRow, byEmail: string, now: Date): Promise<ReportRow> {
  const step = reportMachine.next("none", "case.riskConfirmed");
  const alerts = await tx
    .select()
    .from(complianceAlerts)
    .where(and(eq(complianceAlerts.caseId, closed.id), eq(complianceAlerts.shadow, false)))
    .orderBy(asc(complianceAlerts.raisedAt));
  const transferIds = [...new Set(alerts.map((a) => a.transferId).filter((id): id is string => id !== null))];
  const linked = transferIds.length ? await tx.select().from(transfers).where(inArray(transfers.id, transferIds)).orderBy(asc(transfers.createdAt)) : [];
  const totals = new Map<string, { total: Decimal; transfers: number }>();
  for (const t of linked) {
    const sum = totals.get(t.originCurrency) ?? { total: new Decimal(0), transfers: 0 };
    totals.set(t.originCurrency, { total: sum.total.plus(t.originAmount), transfers: sum.transfers + 1 });
  }
  const amounts: ReportAmount[] = [...totals.entries()].map(([currency, s]) => ({ currency, total: s.total.toFixed(), transfers: s.transfers }));
  const times = linked.length ? linked.map((t) => t.createdAt) : alerts.map((a) => a.raisedAt);
  const at = (pick: (a: number, b: number) => number) =>
    new Date((times.length ? times : [closed.detectedAt]).map((d) => d.getTime()).reduce((a, b) => pick(a, b)));
  const [row] = await tx
    .insert(suspiciousActivityReports)
    .values({
      id: newId("sar"),
      caseId: closed.id,
      customerId: closed.customerId,
      status: step.to,
      subject: await subjectOf(tx, closed.customerId),
      amounts,
      transferIds: linked.map((t) => t.id),
      activityFrom: at(Math.min),
      activityTo: at(Math.max),
      typologies: await typologiesOf(tx, alerts, linked),
      narrative: closed.narrative ?? "",
      detectedAt: closed.detectedAt,
      dueOn: dayAfter(closed.detectedAt, REPORT_DUE_DAYS),
      draftedByEmail: byEmail,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row;
}

export async function lockReport(tx: Tx, reportId: string): Promise<ReportRow> {
  const [row] = await tx.select().from(suspiciousActivityReports).where(eq(suspiciousActivityReports.id, reportId)).for("update");
  if (!row) throw notFound("suspiciousActivityReport", "No such suspicious-activity report.");
  return row;
}

/** The analyst rewrites the narrative of a DRAFTED report, and becomes one of its authors. */
export async function editReport(tx: Tx, input: { reportId: string; narrative: string; operator: { email: string }; now: Date }): Promise<ReportRow> {
  const row = await lockReport(tx, input.reportId);
  reportMachine.next(row.status, "operator.edit");
  const editors = row.editedByEmails.includes(input.operator.email) ? row.editedByEmails : [...row.editedByEmails, input.operator.email];
  const [updated] = await tx
    .update(suspiciousActivityReports)
    .set({ narrative: input.narrative, editedByEmails: editors, updatedAt: input.now })
    .where(eq(suspiciousActivityReports.id, row.id))
    .returning();
  return updated;
}

/** Who wrote the report: the analyst who drafted it (closed the case) and everyone who rewrote it. */
export function reportAuthors(r: Pick<ReportRow, "draftedByEmail" | "editedByEmails">): string[] {
  return [...new Set([r.draftedByEmail, ...r.editedByEmails])];
}

/**
 * Four eyes: DRAFTED → APPROVED by a second analyst, refused (403
 * suspiciousActivityReport.selfApproval) when the approver drafted or rewrote the report. An
 * approved report is frozen: what is filed is what the second analyst read.
 */
export async function approveReport(tx: Tx, input: { reportId: string; operator: { id: string; email: string }; now: Date }): Promise<ReportRow> {
  const row = await lockReport(tx, input.reportId);
  const step = reportMachine.next(row.status, "operator.approve");
  const email = input.operator.email.toLowerCase();
  if (reportAuthors(row).some((a) => a.toLowerCase() === email)) {
    throw new DomainError("suspiciousActivityReport.selfApproval", {
      message: "You wrote this report: a second analyst must approve it.",
      details: { reportId: row.id, authors: reportAuthors(row) },
    });
  }
  const [approved] = await tx
    .update(suspiciousActivityReports)
    .set({ status: step.to, approvedAt: input.now, approvedById: input.operator.id, approvedByEmail: input.operator.email, updatedAt: input.now })
    .where(eq(suspiciousActivityReports.id, row.id))
    .returning();
  return approved;
}

/** APPROVED → FILED with the authority's reference (e.g. the BSA ID FinCEN acknowledges); a report not yet approved is refused. */
export async function fileReport(tx: Tx, input: { reportId: string; authorityReference: string; operator: { email: string }; now: Date }): Promise<ReportRow> {
  const row = await lockReport(tx, input.reportId);
  const step = reportMachine.next(row.status, "operator.file");
  const [filed] = await tx
    .update(suspiciousActivityReports)
    .set({ status: step.to, authorityReference: input.authorityReference, filedAt: input.now, filedByEmail: input.operator.email, updatedAt: input.now })
    .where(eq(suspiciousActivityReports.id, row.id))
    .returning();
  // A filed report makes the customer HIGH until an analyst's override reviews it.
  await requestRating(tx, filed.customerId, input.now, "report.filed");
  return filed;
}

/** Reports not filed (drafted or approved) whose due date has passed (`today` YYYY-MM-DD, UTC), oldest due first. */
export async function overdueReports(db: Executor, today: string): Promise<ReportRow[]> {
  return db
    .select()
    .from(suspiciousActivityReports)
    .where(and(ne(suspiciousActivityReports.status, "FILED"), lt(suspiciousActivityReports.dueOn, today)))
    .orderBy(asc(suspiciousActivityReports.dueOn));
}

/** The report as filed: one JSON document (dates in RFC 3339, amounts as decimal strings). */
export function reportJson(r: ReportRow) {
  return {
    reportId: r.id,
    caseId: r.caseId,
    status: r.status,
    subject: r.subject,
    amounts: r.amounts,
    transferIds: r.transferIds,
    activityFrom: r.activityFrom.toISOString(),
    activityTo: r.activityTo.toISOString(),
    typologies: r.typologies,
    narrative: r.narrative,
    detectedAt: r.detectedAt.toISOString(),
    dueOn: r.dueOn,
    authorityReference: r.authorityReference,
    filedAt: r.filedAt?.toISOString() ?? null,
    draftedBy: r.draftedByEmail,
    approvedBy: r.approvedByEmail,
    approvedAt: r.approvedAt?.toISOString() ?? null,
  };
}

/** The report as CSV (RFC 4180): one row of fields, lists joined with "; ". */
export function reportCsv(r: ReportRow): string {
  const j = reportJson(r);
  const s = j.subject;
  const row = {
    report_id: j.reportId,
    case_id: j.caseId,
    status: j.status,
    customer_id: s.customerId,
    partner_id: s.partnerId ?? "",
    first_name: s.firstName ?? "",
    last_name: s.lastName ?? "",
    date_of_birth: s.dateOfBirth ?? "",
    nationality: s.nationality ?? "",
    residence_country: s.residenceCountry ?? "",
    address: s.address ?? "",
    amounts: j.amounts.map((a) => `${a.total} ${a.currency} (${a.transfers})`).join("; "),
    transfer_ids: j.transferIds.join("; "),
    activity_from: j.activityFrom,
    activity_to: j.activityTo,
    typologies: j.typologies.join("; "),
    narrative: j.narrative,
    detected_at: j.detectedAt,
    due_on: j.dueOn,
    authority_reference: j.authorityReference ?? "",
    filed_at: j.filedAt ?? "",
    drafted_by: j.draftedBy,
    approved_by: j.approvedBy ?? "",
    approved_at: j.approvedAt ?? "",
  };
  return stringify([row], { header: true, record_delimiter: "\r\n" });
}
