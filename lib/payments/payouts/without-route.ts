/**
 * The payouts the router has no provider left for (the operations alert payout.noRoute). Kept
 * apart from the router (./routed.ts) so operations read it without the router's imports.
 */
import { and, asc, eq, inArray, lt, or, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { payoutProviderAttempts, transfers } from "@/db/schema";

/** How long a repaired payout may wait for its route job before it counts as having no route left. */
const REPAIRED_ROUTE_GRACE_MS = 15 * 60_000;

/** A payable transfer the router found no provider for: it waits for an operator (the payout.noRoute alert). */
export interface PayoutWithoutRoute {
  transferId: string;
  corridor: string;
  /** When its last try ended (failed, paid late, or repaired). */
  since: Date;
}

/**
 * The payable transfers whose latest try ended and none followed: every route failed (or was
 * refused) and the router had none left. A failover routes in the try's own transaction, so a
 * FAILED latest try is never transient; a REPAIRED one is routed by a job, so it counts only once
 * that job had its time. The oldest first, at most `limit`.
 */
export async function payoutsWithoutRoute(db: Executor, now: Date, limit = 100): Promise<PayoutWithoutRoute[]> {
  const a = payoutProviderAttempts;
  return db
    .select({ transferId: transfers.id, corridor: transfers.corridor, since: a.stateChangedAt })
    .from(a)
    .innerJoin(transfers, eq(transfers.id, a.transferId))
    .where(
      and(
        inArray(transfers.state, ["funded", "topay", "reqpay"]),
        sql`${a.seq} = (select max(b.seq) from payout_provider_attempts b where b.transfer_id = ${a.transferId})`,
        or(
          inArray(a.state, ["FAILED", "LATE_PAID", "REVERSED"]),
          and(eq(a.state, "REPAIRED"), lt(a.stateChangedAt, new Date(now.getTime() - REPAIRED_ROUTE_GRACE_MS))),
        ),
      ),
    )
    .orderBy(asc(a.stateChangedAt), asc(transfers.id))
    .limit(limit);
}
