import type { SQLWrapper } from "drizzle-orm";
import type { z } from "zod";
import type { Db, Tx } from "@/db";
import type { JobKind, JobPayload } from "./kinds";

export interface JobRun<P> {
  payload: P;
  jobId: string;
  attempt: number;
  now: Date;
  /**
   * Aborted when the run passes its kind's hard timeout (or the worker stops): outside I/O should
   * pass it on (fetch). The worker counts a timed-out run as a failed attempt whether or not the
   * job notices.
   */
  signal: AbortSignal;
  /**
   * A `perform` job's "done" as a write (its claim still held), for the job to send in its last
   * statement, with its settlement: one statement, not a second one from the worker, which then
   * writes none. Only with the job's last write, after which nothing of the run may fail (a mail
   * still to send is not after it). Absent outside the worker (a test calling perform).
   */
  done?: () => SQLWrapper;
}

/** The run's "done" as a list for `atCommit(...)`: empty when the caller is not the worker. */
export function doneWith(run: Pick<JobRun<unknown>, "done">): SQLWrapper[] {
  return run.done ? [run.done()] : [];
}

interface JobBase<P> {
  kind: string;
  schema: z.ZodType<P>;
  /** Seconds to wait before attempt n+1 after n failures. */
  backoff?: (failures: number) => number;
  /**
   * Called once when the job gives up after maxAttempts (not for an invalid payload), so its
   * owner can record the failure (a webhook event marked failed, unblocking the next one).
   */
  onDead?(db: Db, job: JobRun<P>, error: string): Promise<void>;
  /**
   * A periodic job (housekeeping): scheduled once at worker start (lib/platform/jobs/periodic.ts) with an
   * empty payload, and rescheduled this many seconds after each run ends (done or dead).
   */
  every?: number;
}

// Method syntax (not arrow properties) on purpose: a definition for one payload type then fits
// a registry of any payload (method parameters are checked bivariantly), without casts.
interface RunJob<P> extends JobBase<P> {
  /** Writes that commit in one transaction with the job's completion. */
  run(tx: Tx, job: JobRun<P>): Promise<void>;
  perform?: never;
}
interface PerformJob<P> extends JobBase<P> {
  /** Work with outside I/O (a webhook POST) that must not hold a transaction open. */
  perform(db: Db, job: JobRun<P>): Promise<void>;
  run?: never;
}

/**
 * A job kind: its payload schema (an invalid payload is dropped, not retried forever) and either
 * `run` or `perform`.
 */
export type JobDefinition<P> = RunJob<P> | PerformJob<P>;

/** What a worker runs: job definitions by kind. Built by the process (lib/operations/runtime/job-registry.ts) and handed to the worker. */
export type JobRegistry = Readonly<Record<string, JobDefinition<unknown>>>;

export function defineJob<K extends JobKind>(def: JobDefinition<JobPayload<K>> & { kind: K }): JobDefinition<JobPayload<K>> & { kind: K } {
  return def;
}

/** Thrown by a job to be run again later without counting as a failure (e.g. waiting its turn). */
export class RetryLater extends Error {
  constructor(
    readonly afterSeconds: number,
    reason: string,
  ) {
    super(reason);
  }
}

/** Exponential backoff capped at an hour: 5 s, 10 s, 20 s ... */
export function defaultBackoff(failures: number): number {
  return Math.min(3600, 5 * 2 ** Math.max(0, failures - 1));
}
