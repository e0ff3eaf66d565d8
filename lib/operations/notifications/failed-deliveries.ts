import { and, desc, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { jobs, otpDeliveries } from "@/db/schema";
import { maskIdentifier } from "@/lib/identity";

const DELIVERY_JOB = "notifications.otpDelivery";

/** Given up: the delivery job's last attempt failed. */
const givenUp = () => eq(otpDeliveries.state, "FAILED");
/** Still being retried: an attempt failed and the job will try again. */
const retrying = () => and(eq(otpDeliveries.state, "PENDING"), isNotNull(otpDeliveries.lastError));

function summary(r: typeof otpDeliveries.$inferSelect) {
  return {
    id: r.id,
    partnerId: r.partnerId,
    channel: r.channel,
    provider: r.provider,
    recipient: maskIdentifier({ type: r.channel === "EMAIL" ? "EMAIL" : "PHONE", value: r.recipient }),
    purpose: r.purpose,
    attempts: r.attempts,
    lastError: r.lastError,
    createdAt: r.createdAt,
  };
}

/** OTP messages the delivery job gave up on, newest first, recipient masked (console). */
export async function failedOtpDeliveries(db: Executor, limit = 100) {
  const rows = await db.select().from(otpDeliveries).where(givenUp()).orderBy(desc(otpDeliveries.createdAt)).limit(limit);
  return rows.map((r) => ({ ...summary(r), failedAt: r.failedAt }));
}

/**
 * OTP messages whose last attempt failed and that the job will try again (every
 * OTP mail failing with "535 Invalid login" showed no problem until the sixth attempt), newest
 * first, with the transport's last error and when the next attempt is due (the pending job's
 * run_at; null while an attempt is running).
 */
export async function retryingOtpDeliveries(db: Executor, limit = 100) {
  const rows = await db.select().from(otpDeliveries).where(retrying()).orderBy(desc(otpDeliveries.createdAt)).limit(limit);
  if (rows.length === 0) return [];
  const deliveryId = sql<string>`${jobs.payload}->>'deliveryId'`;
  const live = await db
    .select({ deliveryId, state: jobs.state, runAt: jobs.runAt })
    .from(jobs)
    .where(
      and(
        eq(jobs.kind, DELIVERY_JOB),
        inArray(jobs.state, ["pending", "running"]),
        inArray(
          deliveryId,
          rows.map((r) => r.id),
        ),
      ),
    );
  const next = new Map(live.map((j) => [j.deliveryId, j.state === "pending" ? j.runAt : null]));
  return rows.map((r) => ({ ...summary(r), nextAttemptAt: next.get(r.id) ?? null }));
}

/** How many deliveries the Failed deliveries page lists (the console's Overview): given up or being retried. */
export async function failedOtpDeliveryCount(db: Executor): Promise<number> {
  return db.$count(otpDeliveries, or(givenUp(), retrying()));
}
