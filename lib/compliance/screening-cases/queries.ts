import { and, asc, count, desc, eq, inArray, ne } from "drizzle-orm";
import type { Executor } from "@/db";
import { beneficiaries, customerFlags, customers, screeningCases, transfers } from "@/db/schema";

/** Read-only views of screening cases and customer flags for the console. */
export const CASE_PAGE_SIZE = 20;

export async function openCaseCount(db: Executor): Promise<number> {
  const [row] = await db.select({ n: count() }).from(screeningCases).where(eq(screeningCases.state, "OPEN"));
  return row?.n ?? 0;
}

/**
 * Open cases oldest first (or the latest decided ones, or the one case a link names), with the
 * subject, its customer and its transfers.
 */
export async function caseQueue(db: Executor, view: "open" | "decided" | { caseId: string }, page: number) {
  const rows = await db
    .select({
      c: screeningCases,
      customerProfile: customers.profile,
      customerStatus: customers.status,
      benFirst: beneficiaries.firstName,
      benLast: beneficiaries.lastName,
      benState: beneficiaries.state,
    })
    .from(screeningCases)
    .innerJoin(customers, eq(customers.id, screeningCases.customerId))
    .leftJoin(beneficiaries, and(eq(screeningCases.subjectType, "beneficiary"), eq(beneficiaries.id, screeningCases.subjectId)))
    .where(
      typeof view === "object" ? eq(screeningCases.id, view.caseId) : view === "open" ? eq(screeningCases.state, "OPEN") : ne(screeningCases.state, "OPEN"),
    )
    .orderBy(view === "open" ? asc(screeningCases.createdAt) : desc(screeningCases.decidedAt))
    .limit(CASE_PAGE_SIZE + 1)
    .offset((page - 1) * CASE_PAGE_SIZE);
  const items = rows.slice(0, CASE_PAGE_SIZE);
  const benIds = items.filter((r) => r.c.subjectType === "beneficiary").map((r) => r.c.subjectId);
  const cusIds = items.filter((r) => r.c.subjectType === "customer").map((r) => r.c.subjectId);
  const ts = [
    ...(benIds.length ? await db.select().from(transfers).where(inArray(transfers.beneficiaryId, benIds)) : []),
    ...(cusIds.length ? await db.select().from(transfers).where(inArray(transfers.customerId, cusIds)) : []),
  ];
  return {
    hasMore: rows.length > CASE_PAGE_SIZE,
    items: items.map((r) => ({
      ...r,
      transfers: ts
        .filter((t) => (r.c.subjectType === "beneficiary" ? t.beneficiaryId : t.customerId) === r.c.subjectId)
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()),
    })),
  };
}

/** The flags on a customer's console record, newest first, with the beneficiary's name. */
export async function flagsOf(db: Executor, customerId: string) {
  return db
    .select({ f: customerFlags, first: beneficiaries.firstName, last: beneficiaries.lastName, benState: beneficiaries.state })
    .from(customerFlags)
    .leftJoin(beneficiaries, eq(beneficiaries.id, customerFlags.beneficiaryId))
    .where(eq(customerFlags.customerId, customerId))
    .orderBy(desc(customerFlags.createdAt));
}

/** The state of the latest screening case of each subject (for the review queue's reasons). */
export async function latestCaseStates(db: Executor, subjects: { beneficiaryIds: string[]; customerIds: string[] }): Promise<Map<string, string>> {
  const ids = [...subjects.beneficiaryIds, ...subjects.customerIds];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ subjectId: screeningCases.subjectId, state: screeningCases.state })
    .from(screeningCases)
    .where(inArray(screeningCases.subjectId, ids))
    .orderBy(asc(screeningCases.createdAt));
  return new Map(rows.map((r) => [r.subjectId, r.state])); // the latest wins
}
