import { and, desc, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { transferStateHistory } from "@/db/schema";

/** When the transfer was (last) funded, from its history; undefined when it never was. */
export async function fundedAtOf(db: Executor, transferId: string): Promise<Date | undefined> {
  const [row] = await db
    .select({ at: transferStateHistory.transitionedAt })
    .from(transferStateHistory)
    .where(and(eq(transferStateHistory.transferId, transferId), eq(transferStateHistory.state, "funded")))
    .orderBy(desc(transferStateHistory.seq))
    .limit(1);
  return row?.at;
}
