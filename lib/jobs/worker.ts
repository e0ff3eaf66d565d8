import { and, asc, eq, inArray, lte, or, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { jobs } from "@/db/schema";
import { addSeconds, clock } from "@/lib/clock";
import { logger } from "@/lib/log";
import { defaultBackoff, RetryLater, type JobRegistry } from "./define";

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
    const lease = addSeconds(now, LEASE_SECONDS);
    await tx
      .update(jobs)
      .set({ state: "running", lockedUntil: lease, attempts: sql`${jobs.attempts} + 1` })
      .where(
        inArray(
          jobs.id,
          due.map((j) => j.id),
        ),
      );
    return due.map((j) => ({ ...j, state: "running", lockedUntil: lease, attempts: j.attempts + 1 }));
  });
}

/**
 * The claim still held: this worker's lease. A worker that outlived its lease (another took the job
 * over) must not overwrite the new holder's outcome, so every write of the outcome checks it.
 */
function held(job: JobRow) {
  return and(eq(jobs.id, job.id), eq(jobs.state, "running"), eq(jobs.lockedUntil, job.lockedUntil!));
}

/** Records the outcome; false when the lease was lost (nothing written). */
async function finish(db: Db, job: JobRow, set: Partial<JobRow>): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ lockedUntil: null, ...set })
    .where(held(job))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

class LeaseLost extends Error {}

async function runOne(db: Db, registry: JobRegistry, job: JobRow): Promise<void> {
  const def = Object.hasOwn(registry, job.kind) ? registry[job.kind] : undefined;
  const now = clock.now();
  // Claimed in a batch whose earlier jobs took the whole lease: another worker may own it by now.
  if (now.getTime() >= job.lockedUntil!.getTime()) return;
  if (!def) {
    await finish(db, job, { state: "dead", lastError: `unknown job kind ${job.kind}`, finishedAt: now });
    return;
  }
  const parsed = def.schema.safeParse(job.payload);
  if (!parsed.success) {
    await finish(db, job, { state: "dead", lastError: "invalid payload", finishedAt: now });
    return;
  }
  const run = { payload: parsed.data, jobId: job.id, attempt: job.attempts, now, signal: new AbortController().signal };
  try {
    if (def.run) {
      await db.transaction(async (tx) => {
        await def.run!(tx, run);
        const done = await tx.update(jobs).set({ state: "done", lockedUntil: null, finishedAt: clock.now() }).where(held(job)).returning({ id: jobs.id });
        // Another worker owns the job now: roll this run's writes back, the owner's run counts.
        if (done.length === 0) throw new LeaseLost("job lease lost");
      });
    } else {
      await def.perform!(db, run);
      await finish(db, job, { state: "done", finishedAt: clock.now() });
    }
  } catch (err) {
    const later = clock.now();
    if (err instanceof LeaseLost) {
      logger().warn({ jobId: job.id, kind: job.kind }, "job lease lost; its writes were rolled back");
      return;
    }
    if (err instanceof RetryLater) {
      // Not a failure: give the attempt back and wait.
      await finish(db, job, { state: "pending", attempts: job.attempts - 1, runAt: addSeconds(later, err.afterSeconds) });
      return;
    }
    const message = err instanceof Error ? err.message.slice(0, 500) : "failed";
    if (job.attempts >= job.maxAttempts) {
      logger().error({ jobId: job.id, kind: job.kind, attempts: job.attempts, error: message }, "job gave up");
      const gaveUp = await finish(db, job, { state: "dead", lastError: message, finishedAt: later });
      if (gaveUp && def.onDead) {
        await def.onDead(db, run, message).catch((hookErr) => logger().error({ err: hookErr, jobId: job.id, kind: job.kind }, "job onDead hook failed"));
      }
      return;
    }
    const delay = (def.backoff ?? defaultBackoff)(job.attempts);
    logger().warn({ jobId: job.id, kind: job.kind, attempt: job.attempts, retryInSeconds: delay, error: message }, "job failed");
    await finish(db, job, { state: "pending", lastError: message, runAt: addSeconds(later, delay) });
  }
}

/** Runs every job due now (up to `limit`) with the kinds of `registry`; returns how many ran. */
export async function runDueJobs(db: Db, registry: JobRegistry, limit = 20): Promise<number> {
  const claimed = await claim(db, clock.now(), limit);
  for (const job of claimed) await runOne(db, registry, job);
  return claimed.length;
}
