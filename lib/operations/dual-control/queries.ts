import { and, asc, count, desc, eq, gt, ne, or, lte } from "drizzle-orm";
import type { Executor } from "@/db";
import { proposals } from "@/db/schema";
import type { OperatorRole } from "@/lib/operations/operators/records";
import { roleOf } from "@/lib/operations/commands/registry";
import { RENAMED } from "@/lib/platform/config/controlled-actions";

/** Read-only views of dual-control proposals for the console. */
export const PROPOSAL_PAGE_SIZE = 20;

/** Proposals waiting for a second operator (the Overview's count): not decided, not past their 30 days. */
const waiting = (now: Date) => and(eq(proposals.state, "PROPOSED"), gt(proposals.lapsesAt, now));

export async function queuedProposalCount(db: Executor, now: Date): Promise<number> {
  const [row] = await db.select({ n: count() }).from(proposals).where(waiting(now));
  return row?.n ?? 0;
}

/** Waiting proposals oldest first, or the decided (and lapsed) ones newest first. */
export async function proposalQueue(db: Executor, view: "waiting" | "decided", page: number, now: Date) {
  const rows = await db
    .select()
    .from(proposals)
    .where(view === "waiting" ? waiting(now) : or(ne(proposals.state, "PROPOSED"), lte(proposals.lapsesAt, now)))
    .orderBy(view === "waiting" ? asc(proposals.createdAt) : desc(proposals.createdAt))
    .limit(PROPOSAL_PAGE_SIZE + 1)
    .offset((page - 1) * PROPOSAL_PAGE_SIZE);
  return { items: rows.slice(0, PROPOSAL_PAGE_SIZE), hasMore: rows.length > PROPOSAL_PAGE_SIZE };
}

export async function proposalById(db: Executor, id: string) {
  const [row] = await db.select().from(proposals).where(eq(proposals.id, id));
  return row;
}

/**
 * Waiting proposals `operator` may approve (the header's Approvals badge): not
 * their own, and of an action their role may approve.
 */
export async function approvableProposalCount(db: Executor, operator: { id: string; role: OperatorRole }, now: Date): Promise<number> {
  const rows = await db
    .select({ action: proposals.action, n: count() })
    .from(proposals)
    .where(and(waiting(now), ne(proposals.proposedBy, operator.id)))
    .groupBy(proposals.action);
  if (operator.role === "auditor") return 0; // an auditor reads the proposals, approves none
  const adminOnly = (action: string) => roleOf(RENAMED[action]?.to ?? action) !== "reviewer";
  return rows.filter((r) => operator.role === "admin" || !adminOnly(r.action)).reduce((sum, r) => sum + Number(r.n), 0);
}
