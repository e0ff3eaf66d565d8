import { sql } from "drizzle-orm";
import type { Db, Executor } from "@/db";
import { jobs } from "@/db/schema";
import { addSeconds, clock } from "@/lib/platform/clock";
import { logger } from "@/lib/platform/log";
import { withCorrelation } from "@/lib/platform/log/correlation";
import { claim, DoneBatch, doneWrite, finish, renewLeases, type ClaimedJob, type ClaimFilter } from "./claim";
import { defaultBackoff, RetryLater, type JobDefinition, type JobRegistry, type JobRun } from "./define";
import { workerSettings, type WorkerSettings } from "./lanes";
import { insertJob, periodicKey } from "./queue";
import { DomainError } from "@/lib/platform/errors";
import { withinUnit } from "@/lib/platform/unit-of-work";

class LeaseLost extends Error {
  constructor() {
    super("job lease lost");
  }
}

class JobTimedOut extends Error {
  constructor(ms: number) {
    super(`timed out after ${ms} ms`);
  }
}

/**
 * Renews the leases of the jobs a worker holds while they run, so a short lease (a dead worker's
 * jobs come back within seconds) never expires under a live one. A claim found lost is reported.
 */
export class Heartbeat {
  private readonly holding = new Map<string, { job: ClaimedJob; lost: () => void }>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private beating = false;

  constructor(
    private readonly db: Db,
    private readonly settings: WorkerSettings,
  ) {}

  ids(): string[] {
    return [...this.holding.keys()];
  }

  hold(job: ClaimedJob, lost: () => void = () => {}): void {
    this.holding.set(job.id, { job, lost });
    this.timer ??= setInterval(() => void this.beat(), this.settings.heartbeatMs);
  }

  release(jobId: string): void {
    this.holding.delete(jobId);
    if (this.holding.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private async beat(): Promise<void> {
    if (this.beating) return;
    this.beating = true;
    try {
      // Every lease held, in one statement.
      const entries = [...this.holding.values()];
      const until = addSeconds(clock.now(), this.settings.leaseSeconds);
      const renewed = await renewLeases(
        this.db,
        entries.map((e) => e.job),
        until,
      );
      for (const entry of entries) {
        if (renewed.has(entry.job.id)) entry.job.lockedUntil = until;
        else if (this.holding.has(entry.job.id)) entry.lost();
      }
    } catch (err) {
      logger().error({ err }, "job heartbeat failed");
    } finally {
      this.beating = false;
    }
  }
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

/** A periodic job's next run, enqueued as its run ends (in the same transaction for a `run` job). */
async function reschedule(db: Executor, def: JobDefinition<unknown>, job: ClaimedJob, now: Date): Promise<void> {
  if (def.every) await insertJob(db, job.kind, job.payload, { runAt: addSeconds(now, def.every), dedupeKey: job.dedupeKey ?? periodicKey(job.kind) });
}

/**
 * Runs one claimed job under its kind's hard timeout, with its lease renewed by the heartbeat, and
 * records the outcome: done, retry with backoff (a timeout is a failed attempt), or dead. A
 * `perform` job's "done" goes through `doneBatch` when given (written with others that ended meanwhile).
 */
export async function runOne(...args: Parameters<typeof runClaimed>): Promise<void> {
  const job = args[2];
  // Under the correlation id of what enqueued it (a request, another job), else its own id.
  return withCorrelation(job.correlationId ?? job.id, () => runClaimed(...args));
}

async function runClaimed(
  db: Db,
  registry: JobRegistry,
  job: ClaimedJob,
  settings: WorkerSettings,
  heartbeat: Heartbeat,
  doneBatch?: DoneBatch,
): Promise<void> {
  const def = Object.hasOwn(registry, job.kind) ? registry[job.kind] : undefined;
  const now = clock.now();
  // Claimed in a batch whose earlier jobs outlasted the lease: another worker may own it by now.
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
  const controller = new AbortController();
  const timeoutMs = settings.timeoutMs(job.kind);
  const timer = setTimeout(() => controller.abort(new JobTimedOut(timeoutMs)), timeoutMs);
  heartbeat.hold(job, () => controller.abort(new LeaseLost()));
  // A `perform` job may send its "done" with its last write (JobRun.done): the worker then writes none.
  let doneSent = false;
  const done = () => {
    doneSent = true;
    return doneWrite(db, job, clock.now());
  };
  const run: JobRun<unknown> = {
    payload: parsed.data,
    jobId: job.id,
    attempt: job.attempts,
    now,
    signal: controller.signal,
    ...(def.perform && !def.every ? { done } : {}),
  };
  try {
    const work = def.run
      ? withinUnit(
          async ({ tx }) => {
            // A job's failure rolls its run back, a kept error's writes too: its retry starts afresh.
            await def.run!(tx, run).catch((err) => {
              throw err instanceof DomainError && err.keepChanges ? new Error(err.message, { cause: err }) : err;
            });
            // Timed out or taken over meanwhile: roll this run's writes back.
            if (controller.signal.aborted) throw controller.signal.reason;
            // A periodic job's next run takes the series' dedupe key, which its running row holds
            // until it is written done: done first, in a statement of its own (hourly jobs).
            if (def.every) {
              const done = await doneWrite(tx, job, clock.now());
              if (done.length === 0) throw new LeaseLost();
              await reschedule(tx, def, job, clock.now());
            }
          },
          {
            db,
            now,
            actor: { kind: "job", id: job.id, jobKind: job.kind },
            // "Done" in the statement of the unit's effects (not one of its own); another worker
            // owns the job now when it writes none: roll this run's writes back, the owner's run counts.
            finish: def.every ? undefined : { write: () => doneWrite(db, job, clock.now()), lost: () => new LeaseLost() },
          },
        ).then((o) => {
          // A DomainError thrown by the run is its failure (recorded as any other).
          if (!o.ok) throw o.error;
        })
      : def.perform!(db, run);
    // A run given up on (timeout) may still end later: its outcome no longer matters.
    work.catch(() => {});
    await Promise.race([work, rejectOnAbort(controller.signal)]);
    if (def.perform) {
      // Sent with the job's last write (never a periodic job's: see the `run` job's above).
      const recorded = doneSent || (doneBatch ? await doneBatch.done(job) : await finish(db, job, { state: "done", finishedAt: clock.now() }));
      if (recorded) await reschedule(db, def, job, clock.now());
    }
  } catch (err) {
    await recordFailure(db, def, job, run, err);
  } finally {
    clearTimeout(timer);
    heartbeat.release(job.id);
  }
}

async function recordFailure(db: Db, def: JobDefinition<unknown>, job: ClaimedJob, run: JobRun<unknown>, err: unknown) {
  const later = clock.now();
  if (err instanceof LeaseLost) {
    logger().warn({ jobId: job.id, kind: job.kind }, "job lease lost; its writes were rolled back");
    return;
  }
  if (err instanceof RetryLater) {
    // Not a failure: give the attempt back and wait, unless nudged while it ran (nudgeJob moved
    // runAt): what it waited for may be over already (a delivery's earlier event just settled).
    const wait = addSeconds(later, err.afterSeconds).toISOString();
    const runAt = sql`case when ${jobs.runAt} > ${job.runAt.toISOString()}::timestamptz then ${jobs.runAt} else ${wait}::timestamptz end`;
    await finish(db, job, { state: "pending", attempts: job.attempts - 1, runAt });
    return;
  }
  const message = err instanceof Error ? err.message.slice(0, 500) : "failed";
  if (job.attempts >= job.maxAttempts) {
    logger().error({ jobId: job.id, kind: job.kind, attempts: job.attempts, error: message }, "job gave up");
    const gaveUp = await finish(db, job, { state: "dead", lastError: message, finishedAt: later });
    if (gaveUp && def.onDead) {
      await def.onDead(db, run, message).catch((hookErr) => logger().error({ err: hookErr, jobId: job.id, kind: job.kind }, "job onDead hook failed"));
    }
    if (gaveUp) await reschedule(db, def, job, later);
    return;
  }
  const delay = (def.backoff ?? defaultBackoff)(job.attempts);
  logger().warn({ jobId: job.id, kind: job.kind, attempt: job.attempts, retryInSeconds: delay, error: message }, "job failed");
  await finish(db, job, { state: "pending", lastError: message, runAt: addSeconds(later, delay) });
}

/**
 * Runs the jobs due now (up to `limit`, any kind of `registry`) one after another and returns how
 * many ran: for tests and one-off use. The worker loop runs them concurrently, by lane (pool.ts).
 * `only` narrows the kinds (a test on a shared database leaves other files' jobs alone).
 */
export async function runDueJobs(
  db: Db,
  registry: JobRegistry,
  limit = 20,
  settings: WorkerSettings = workerSettings(),
  only: Pick<ClaimFilter, "kinds" | "notKinds"> = {},
): Promise<number> {
  const heartbeat = new Heartbeat(db, settings);
  const claimed = await claim(db, clock.now(), limit, only, settings.leaseSeconds);
  // The whole batch is held from the start: a job waiting its turn keeps its lease too.
  for (const job of claimed) heartbeat.hold(job);
  try {
    for (const job of claimed) await runOne(db, registry, job, settings, heartbeat);
  } finally {
    for (const job of claimed) heartbeat.release(job.id);
  }
  return claimed.length;
}
