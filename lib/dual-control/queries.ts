import { and, asc, count, desc, eq, gt, ne, or, lte } from "drizzle-orm";
import type { Executor } from "@/db";
import { proposals } from "@/db/schema";

/** Read-only views of dual-control proposals for the console (issue 23 item 5). */
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
