import { asc, count, desc, eq, ilike, inArray, or } from "drizzle-orm";
import type { Executor } from "@/db";
import {
  beneficiaries,
  customerRiskRatings,
  customers,
  loginIdentifiers,
  operators,
  partners,
  payoutMethods,
  subscriptions,
  suspiciousActivityReports,
  transfers,
  transferStateHistory,
} from "@/db/schema";
import { maskIdentifier, searchMatchKey } from "@/lib/identity";
import { corridorByCode } from "@/lib/payments";
import { reviewReasons, pepApprovalPendingOf, caseOfCustomers, monitoringReasons, latestCaseStates } from "@/lib/compliance";

/** Read-only views for the console (every change goes through the domain functions). */
export const PAGE_SIZE = 20;

export async function queueCounts(db: Executor) {
  const byState = await db
    .select({ state: transfers.state, n: count() })
    .from(transfers)
    .where(inArray(transfers.state, ["onreview", "spended"]))
    .groupBy(transfers.state);
  const [ben] = await db
    .select({ n: count() })
    .from(beneficiaries)
    .where(inArray(beneficiaries.state, ["PENDING", "BLOCKED"]));
  const get = (s: string) => byState.find((r) => r.state === s)?.n ?? 0;
  return { review: get("onreview"), holds: get("spended"), screening: ben?.n ?? 0 };
}

/** Transfers in a queue state with what an operator needs to decide. */
export async function transferQueue(db: Executor, state: "onreview" | "spended", page: number) {
  const rows = await db
    .select({
      t: transfers,
      customerStatus: customers.status,
      kycStatus: customers.kycStatus,
      customerProfile: customers.profile,
      rating: customerRiskRatings.rating,
      first: beneficiaries.firstName,
      last: beneficiaries.lastName,
      benState: beneficiaries.state,
      masked: payoutMethods.destinationIdentifierMasked,
      methodType: payoutMethods.methodType,
    })
    .from(transfers)
    .innerJoin(customers, eq(customers.id, transfers.customerId))
    .innerJoin(beneficiaries, eq(beneficiaries.id, transfers.beneficiaryId))
    .leftJoin(payoutMethods, eq(payoutMethods.id, transfers.payoutMethodId))
    .leftJoin(customerRiskRatings, eq(customerRiskRatings.customerId, transfers.customerId))
    .where(eq(transfers.state, state))
    .orderBy(asc(transfers.stateChangedAt))
    .limit(PAGE_SIZE + 1)
    .offset((page - 1) * PAGE_SIZE);
  const ids = rows.map((r) => r.t.id);
  const history = ids.length
    ? await db.select().from(transferStateHistory).where(inArray(transferStateHistory.transferId, ids)).orderBy(asc(transferStateHistory.seq))
    : [];
  const cases = await latestCaseStates(db, { beneficiaryIds: rows.map((r) => r.t.beneficiaryId), customerIds: rows.map((r) => r.t.customerId) });
  // Each row is a view of its customer's compliance case: the row links to it.
  const complianceCases = await caseOfCustomers(
    db,
    rows.map((r) => r.t.customerId),
  );
  const monitored = await monitoringReasons(db, ids);
  const pepPending = await pepApprovalPendingOf(
    db,
    rows.map((r) => r.t.customerId),
  );
  return {
    hasMore: rows.length > PAGE_SIZE,
    items: rows.slice(0, PAGE_SIZE).map((r) => ({
      ...r,
      reasons: [
        ...reviewReasons({
          customerStatus: r.customerStatus,
          corridor: corridorByCode(r.t.corridor),
          originAmount: r.t.originAmount,
          screeningCase: cases.get(r.t.beneficiaryId) ?? cases.get(r.t.customerId) ?? null,
          pepApprovalPending: pepPending.has(r.t.customerId),
          rating: r.rating,
        }),
        ...(monitored.get(r.t.id) ?? []),
      ],
      history: history.filter((h) => h.transferId === r.t.id),
      complianceCase: complianceCases.get(r.t.customerId),
    })),
  };
}

export async function beneficiaryQueue(db: Executor, page: number) {
  const rows = await db
    .select({
      b: beneficiaries,
      subscriptionId: subscriptions.id,
      partnerId: subscriptions.partnerId,
      customerId: customers.id,
      customerProfile: customers.profile,
    })
    .from(beneficiaries)
    .innerJoin(subscriptions, eq(subscriptions.id, beneficiaries.subscriptionId))
    .innerJoin(customers, eq(customers.id, subscriptions.customerId))
    .where(inArray(beneficiaries.state, ["PENDING", "BLOCKED"]))
    .orderBy(asc(beneficiaries.createdAt))
    .limit(PAGE_SIZE + 1)
    .offset((page - 1) * PAGE_SIZE);
  return { hasMore: rows.length > PAGE_SIZE, items: rows.slice(0, PAGE_SIZE) };
}

/**
 * Customers by subscriptionId, customer id or login identifier: a whole e-mail address or phone
 * number in its normal form (lib/identity/identifiers/normal-form.ts: "Jane.Doe+x@gmail.com" finds
 * janedoe@gmail.com, "+1 (415) 555-0123" finds +14155550123), or part of one as stored.
 */
export async function searchCustomers(db: Executor, q: string) {
  const term = q.trim();
  if (!term) return [];
  const key = searchMatchKey(term);
  const matches = await db
    .select({ subscriptionId: subscriptions.id })
    .from(subscriptions)
    .leftJoin(loginIdentifiers, eq(loginIdentifiers.subscriptionId, subscriptions.id))
    .where(
      or(
        eq(subscriptions.id, term),
        eq(subscriptions.customerId, term),
        ilike(loginIdentifiers.value, `%${term.toLowerCase()}%`),
        key ? eq(loginIdentifiers.matchKey, key) : undefined,
      ),
    )
    .limit(50);
  const ids = [...new Set(matches.map((m) => m.subscriptionId))];
  if (!ids.length) return [];
  return db
    .select({ s: subscriptions, c: customers })
    .from(subscriptions)
    .innerJoin(customers, eq(customers.id, subscriptions.customerId))
    .where(inArray(subscriptions.id, ids))
    .orderBy(desc(subscriptions.createdAt));
}

export async function customerDetail(db: Executor, subscriptionId: string) {
  const [row] = await db
    .select({ s: subscriptions, c: customers })
    .from(subscriptions)
    .innerJoin(customers, eq(customers.id, subscriptions.customerId))
    .where(eq(subscriptions.id, subscriptionId));
  if (!row) return null;
  const ids = await db.select().from(loginIdentifiers).where(eq(loginIdentifiers.subscriptionId, subscriptionId));
  const list = await db.select().from(transfers).where(eq(transfers.subscriptionId, subscriptionId)).orderBy(desc(transfers.createdAt)).limit(50);
  return { ...row, identifiers: ids.map((i) => maskIdentifier({ type: i.type, value: i.value })), transfers: list };
}

export async function listPartners(db: Executor) {
  return db.select().from(partners).orderBy(asc(partners.createdAt));
}

/** Every partner's name by id: the console shows a partner as its name beside its `partner_…` id. */
export async function partnerNames(db: Executor): Promise<Map<string, string>> {
  const rows = await db.select({ id: partners.id, name: partners.name }).from(partners);
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** An operator's own row (their account page, their second-factor enrolment). */
export async function operatorRow(db: Executor, operatorId: string) {
  const [row] = await db.select().from(operators).where(eq(operators.id, operatorId));
  return row;
}

/** The partners' monitoring modes and parameters, by name (the Monitoring page: the first 200). */
export async function partnersMonitoring(db: Executor) {
  return db
    .select({ id: partners.id, name: partners.name, mode: partners.monitoringMode, parameters: partners.monitoringParameters })
    .from(partners)
    .orderBy(asc(partners.name))
    .limit(200);
}

/** A compliance case's suspicious-activity report (its download), or undefined. */
export async function reportOfCase(db: Executor, caseId: string) {
  const [report] = await db.select().from(suspiciousActivityReports).where(eq(suspiciousActivityReports.caseId, caseId));
  return report;
}
