/** Read-only views of compliance cases, alerts, notes, risk flags and reports for the console. */
import { and, asc, count, desc, eq, inArray, isNull, lt, ne, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import {
  beneficiaries,
  complianceAlerts,
  complianceCaseNotes,
  complianceCases,
  customerRiskFlags,
  customers,
  subscriptions,
  suspiciousActivityReports,
  transfers,
} from "@/db/schema";

export const CASE_INBOX_PAGE_SIZE = 20;
export const INBOX_FILTERS = ["open", "mine", "unassigned", "overdue", "closed"] as const;
export type InboxFilter = (typeof INBOX_FILTERS)[number];

/** Today as the due dates read it (YYYY-MM-DD, UTC). */
export const today = (now: Date) => now.toISOString().slice(0, 10);

const notClosed = ne(complianceCases.state, "CLOSED");

/** The inbox: cases not yet closed (oldest due first), filtered; or the latest closed ones. */
export async function caseInbox(db: Executor, input: { filter: InboxFilter; operatorId: string; now: Date; page: number }) {
  const where: Record<InboxFilter, SQL | undefined> = {
    open: notClosed,
    mine: and(notClosed, eq(complianceCases.assigneeId, input.operatorId)),
    unassigned: and(notClosed, isNull(complianceCases.assigneeId)),
    overdue: and(notClosed, lt(complianceCases.dueOn, today(input.now))),
    closed: eq(complianceCases.state, "CLOSED"),
  };
  const rows = await db
    .select({ c: complianceCases, customerProfile: customers.profile, customerStatus: customers.status, alerts: count(complianceAlerts.id) })
    .from(complianceCases)
    .innerJoin(customers, eq(customers.id, complianceCases.customerId))
    .leftJoin(complianceAlerts, eq(complianceAlerts.caseId, complianceCases.id))
    .where(where[input.filter])
    .groupBy(complianceCases.id, customers.id)
    .orderBy(input.filter === "closed" ? desc(complianceCases.closedAt) : asc(complianceCases.dueOn), asc(complianceCases.createdAt))
    .limit(CASE_INBOX_PAGE_SIZE + 1)
    .offset((input.page - 1) * CASE_INBOX_PAGE_SIZE);
  return { items: rows.slice(0, CASE_INBOX_PAGE_SIZE), hasMore: rows.length > CASE_INBOX_PAGE_SIZE };
}

/** One case with its customer, timeline (alerts and notes), linked transfers and beneficiaries, and report. */
export async function caseDetail(db: Executor, caseId: string) {
  const [row] = await db
    .select({ c: complianceCases, customer: customers })
    .from(complianceCases)
    .innerJoin(customers, eq(customers.id, complianceCases.customerId))
    .where(eq(complianceCases.id, caseId));
  if (!row) return undefined;
  const [alerts, notes, [report], [subscription]] = await Promise.all([
    db.select().from(complianceAlerts).where(eq(complianceAlerts.caseId, caseId)).orderBy(asc(complianceAlerts.raisedAt)),
    db.select().from(complianceCaseNotes).where(eq(complianceCaseNotes.caseId, caseId)).orderBy(asc(complianceCaseNotes.createdAt)),
    db.select().from(suspiciousActivityReports).where(eq(suspiciousActivityReports.caseId, caseId)),
    db
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(eq(subscriptions.customerId, row.c.customerId))
      .orderBy(asc(subscriptions.createdAt))
      .limit(1),
  ]);
  const transferIds = [...new Set(alerts.map((a) => a.transferId).filter((id): id is string => id !== null))];
  const beneficiaryIds = [...new Set(alerts.map((a) => a.beneficiaryId).filter((id): id is string => id !== null))];
  const [linkedTransfers, linkedBeneficiaries, customerTransfers] = await Promise.all([
    transferIds.length ? db.select().from(transfers).where(inArray(transfers.id, transferIds)).orderBy(asc(transfers.createdAt)) : [],
    beneficiaryIds.length ? db.select().from(beneficiaries).where(inArray(beneficiaries.id, beneficiaryIds)) : [],
    // The customer's latest transfers, for the analyst to link one by hand.
    db
      .select({ id: transfers.id, state: transfers.state, originAmount: transfers.originAmount, originCurrency: transfers.originCurrency })
      .from(transfers)
      .where(eq(transfers.customerId, row.c.customerId))
      .orderBy(desc(transfers.createdAt))
      .limit(50),
  ]);
  return { ...row, subscriptionId: subscription?.id, alerts, notes, report, linkedTransfers, linkedBeneficiaries, customerTransfers };
}

/** The Overview's counts: cases not yet closed, those past their due date, reports not filed past theirs. */
export async function caseCounts(db: Executor, now: Date) {
  const [[open], [overdue], [reports]] = await Promise.all([
    db.select({ n: count() }).from(complianceCases).where(notClosed),
    db
      .select({ n: count() })
      .from(complianceCases)
      .where(and(notClosed, lt(complianceCases.dueOn, today(now)))),
    db
      .select({ n: count() })
      .from(suspiciousActivityReports)
      .where(and(ne(suspiciousActivityReports.status, "FILED"), lt(suspiciousActivityReports.dueOn, today(now)))),
  ]);
  return { openCases: open?.n ?? 0, overdueCases: overdue?.n ?? 0, overdueReports: reports?.n ?? 0 };
}

/** A customer's cases (newest first), risk flags, and shadow alerts kept outside any case. */
export async function complianceOfCustomer(db: Executor, customerId: string) {
  const [cases, flags, shadow] = await Promise.all([
    db.select().from(complianceCases).where(eq(complianceCases.customerId, customerId)).orderBy(desc(complianceCases.createdAt)),
    db.select().from(customerRiskFlags).where(eq(customerRiskFlags.customerId, customerId)).orderBy(asc(customerRiskFlags.createdAt)),
    db
      .select()
      .from(complianceAlerts)
      .where(and(eq(complianceAlerts.customerId, customerId), isNull(complianceAlerts.caseId)))
      .orderBy(desc(complianceAlerts.raisedAt))
      .limit(20),
  ]);
  return { cases, flags, shadow };
}

/** Each customer's case not yet closed, else their latest one: what a queue row links to. */
export async function caseOfCustomers(db: Executor, customerIds: string[]): Promise<Map<string, { id: string; state: string }>> {
  if (customerIds.length === 0) return new Map();
  const rows = await db
    .select({ id: complianceCases.id, state: complianceCases.state, customerId: complianceCases.customerId })
    .from(complianceCases)
    .where(inArray(complianceCases.customerId, [...new Set(customerIds)]))
    .orderBy(asc(complianceCases.createdAt));
  const out = new Map<string, { id: string; state: string }>();
  for (const r of rows) {
    const current = out.get(r.customerId);
    if (r.state !== "CLOSED" || !current || current.state === "CLOSED") out.set(r.customerId, { id: r.id, state: r.state });
  }
  return out;
}
