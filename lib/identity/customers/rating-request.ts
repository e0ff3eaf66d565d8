/**
 * Asks for a customer's rating to be recomputed after a change it reads (a case opened or closed,
 * a report filed, a flag set or cleared, KYC or the profile changed): a job enqueued through the
 * unit's effects, so it exists exactly when the change commits, and runs after it (a snapshot that
 * sees the change). One job per customer and instant: two changes in one unit ask once.
 */
import type { Tx } from "@/db";
import { dedupeKey } from "@/lib/platform/jobs/queue";
import { effectsOf } from "@/lib/platform/unit-of-work";

export async function requestRating(tx: Tx, customerId: string, now: Date, cause: string): Promise<void> {
  await effectsOf(tx).jobs.schedule(
    "customers.rate",
    { customerId, cause },
    { runAt: now, dedupeKey: dedupeKey("customers.rate", customerId, String(now.getTime())), maxAttempts: 10 },
  );
}
