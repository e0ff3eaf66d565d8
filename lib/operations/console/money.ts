import { asc, desc, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { refunds, transfers, transferStateHistory } from "@/db/schema";
import { PAGE_SIZE } from "./queries";

/** Read-only views of refunds and of one transfer for the console (changes go through the domain). */

/** Transfers whose refund an operator still has to pay or decide: PENDING, PROCESSING or FAILED, oldest first. */
const DUE = inArray(refunds.state, ["PENDING", "PROCESSING", "FAILED"]);

export async function refundsDue(db: Executor, page: number) {
  const rows = await db
    .select({ ...getTableColumns(transfers), refund: getTableColumns(refunds) })
    .from(transfers)
    .innerJoin(refunds, eq(refunds.transferId, transfers.id))
    .where(DUE)
    .orderBy(asc(refunds.initiatedAt), asc(transfers.id))
    .limit(PAGE_SIZE + 1)
    .offset((page - 1) * PAGE_SIZE);
  return { items: rows.slice(0, PAGE_SIZE), hasMore: rows.length > PAGE_SIZE };
}

export async function refundsDueCount(db: Executor): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(refunds)
    .where(DUE);
  return row?.n ?? 0;
}

/** Completed refunds, newest first (their history), with the bank reference recorded. */
export async function refundsCompleted(db: Executor, limit = 50) {
  return db
    .select({
      transferId: transfers.id,
      // What the refund gave back (less a shortfall or claim refunds); the total before refunds.amount.
      amount: sql<string>`coalesce(${refunds.amount}, ${transfers.totalCustomerCost})`,
      currency: transfers.originCurrency,
      completedAt: refunds.completedAt,
      bankReference: refunds.bankReference,
    })
    .from(refunds)
    .innerJoin(transfers, eq(transfers.id, refunds.transferId))
    .where(eq(refunds.state, "COMPLETED"))
    .orderBy(desc(refunds.completedAt), desc(refunds.id))
    .limit(limit);
}

/** A transfer, its refund and its state history, newest transfer ids as typed by the operator. */
export async function transferWithHistory(db: Executor, transferId: string) {
  const [found] = await db
    .select({ t: getTableColumns(transfers), refund: getTableColumns(refunds) })
    .from(transfers)
    .leftJoin(refunds, eq(refunds.transferId, transfers.id))
    .where(eq(transfers.id, transferId));
  if (!found) return undefined;
  const history = await db.select().from(transferStateHistory).where(eq(transferStateHistory.transferId, transferId)).orderBy(asc(transferStateHistory.seq));
  return { t: found.t, refund: found.refund, history };
}
