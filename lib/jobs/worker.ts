import { and, asc, eq, inArray, lte, or, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { jobs } from "@/db/schema";
import { addSeconds, clock } from "@/lib/clock";
import { logger } from "@/lib/log";
import { defaultBackoff, RetryLater, type JobDefinition } from "./define";
import type { JobKind } from "./kinds";
import { jobRegistry } from "./registry";

type JobRow = typeof jobs.$inferSelect;

/** How long a claimed job stays invisible to other workers; past it, a crashed worker's job is retried. */
const LEASE_SECONDS = 120;

/**
 * Claims up to `limit` due jobs. FOR UPDATE SKIP LOCKED lets several workers (processes or
 * nodes) share the table without ever claiming the same job.
 */
async function claim(db: Db, now: Date, limit: number): Promise<JobRow[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(jobs)
      .where(
        or(
          and(eq(jobs.state, "pending"), lte(jobs.runAt, now)),
          // A running job whose lease ran out belongs to a worker that died.
          and(eq(jobs.state, "running"), lte(jobs.lockedUntil, now)),
        ),
      )
      .orderBy(asc(jobs.runAt))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (due.length === 0) return [];
    await tx
      .update(jobs)
      .set({ state: "running", lockedUntil: addSeconds(now, LEASE_SECONDS), attempts: sql`${jobs.attempts} + 1` })
      .where(inArray(jobs.id, due.map((j) => j.id)));
    return due.map((j) => ({ ...j, attempts: j.attempts + 1 }));
  });
}

async function finish(db: Db, id: string, set: Partial<JobRow>): Promise<void> {
  await db.update(jobs).set({ lockedUntil: null, ...set }).where(eq(jobs.id, id));
}

async function runOne(db: Db, job: JobRow): Promise<void> {
  const def = jobRegistry[job.kind as JobKind] as JobDefinition<JobKind> | undefined;
  const now = clock.now();
  if (!def) return finish(db, job.id, { state: "dead", lastError: `unknown job kind ${job.kind}`, finishedAt: now });
  const parsed = def.schema.safeParse(job.payload);
  if (!parsed.success) return finish(db, job.id, { state: "dead", lastError: "invalid payload", finishedAt: now });
  const run = { payload: parsed.data, jobId: job.id, attempt: job.attempts, now };
  try {
    if (def.run) {
      await db.transaction(async (tx) => {
        await def.run!(tx, run);
        await tx.update(jobs).set({ state: "done", lockedUntil: null, finishedAt: clock.now() }).where(eq(jobs.id, job.id));
      });
    } else {
      await def.perform!(db, run);
      await finish(db, job.id, { state: "done", finishedAt: clock.now() });
    }
  } catch (err) {
    const later = clock.now();
    if (err instanceof RetryLater) {
      // Not a failure: give the attempt back and wait.
      return finish(db, job.id, { state: "pending", attempts: job.attempts - 1, runAt: addSeconds(later, err.afterSeconds) });
    }
    const message = err instanceof Error ? err.message.slice(0, 500) : "failed";
    if (job.attempts >= job.maxAttempts) {
      logger().error({ jobId: job.id, kind: job.kind, attempts: job.attempts, error: message }, "job gave up");
      return finish(db, job.id, { state: "dead", lastError: message, finishedAt: later });
    }
    const delay = (def.backoff ?? defaultBackoff)(job.attempts);
    logger().warn({ jobId: job.id, kind: job.kind, attempt: job.attempts, retryInSeconds: delay, error: message }, "job failed");
    await finish(db, job.id, { state: "pending", lastError: message, runAt: addSeconds(later, delay) });
  }
}

/** Runs every job due now; returns how many ran. */
export async function runDueJobs(db: Db, limit = 20): Promise<number> {
  const claimed = await claim(db, clock.now(), limit);
  for (const job of claimed) await runOne(db, job);
  return claimed.length;
}

/** Moves a waiting job forward to now (the next event of a subscription after a delivery). */
export async function nudgeJob(db: Db, dedupeKey: string): Promise<void> {
  await db.update(jobs).set({ runAt: clock.now() }).where(and(eq(jobs.dedupeKey, dedupeKey), eq(jobs.state, "pending")));
}
