import { eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { refunds } from "@/db/schema";

/** The transfer's refund row (refunds have their own table), or null. */
export async function refundOf(db: Executor, transferId: string) {
  const [row] = await db.select().from(refunds).where(eq(refunds.transferId, transferId));
  return row ?? null;
}
