import { asc, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { transfers, transferStateHistory } from "@/db/schema";
import { PAGE_SIZE } from "./queries";

/** Read-only views of refunds and of one transfer for the console (changes go through the domain). */

/** Transfers whose refund an operator still has to pay or decide: PENDING, PROCESSING or FAILED, oldest first. */
export async function refundsDue(db: Executor, page: number) {
  const rows = await db
    .select()
    .from(transfers)
    .where(sql`${transfers.refund}->>'refundStatus' in ('PENDING', 'PROCESSING', 'FAILED')`)
    .orderBy(asc(sql`${transfers.refund}->>'refundInitiatedAt'`), asc(transfers.id))
    .limit(PAGE_SIZE + 1)
    .offset((page - 1) * PAGE_SIZE);
  return { items: rows.slice(0, PAGE_SIZE), hasMore: rows.length > PAGE_SIZE };
}

export async function refundsDueCount(db: Executor): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(transfers)
    .where(sql`${transfers.refund}->>'refundStatus' in ('PENDING', 'PROCESSING', 'FAILED')`);
  return row?.n ?? 0;
}

/** A transfer and its state history, newest transfer ids as typed by the operator. */
export async function transferWithHistory(db: Executor, transferId: string) {
  const [t] = await db.select().from(transfers).where(eq(transfers.id, transferId));
  if (!t) return undefined;
  const history = await db.select().from(transferStateHistory).where(eq(transferStateHistory.transferId, transferId)).orderBy(asc(transferStateHistory.seq));
  return { t, history };
}
