import type { z } from "zod";
import type { Db, Tx } from "@/db";
import type { JobKind, JobPayload } from "./kinds";

export interface JobRun<P> {
  payload: P;
  jobId: string;
  attempt: number;
  now: Date;
}

/**
 * A job kind: its payload schema (an invalid payload is dropped, not retried forever) and either
 * `run`, whose writes commit in one transaction with the job's completion, or `perform`, for work
 * with outside I/O (a webhook POST) that must not hold a transaction open.
 */
export type JobDefinition<K extends JobKind> = {
  kind: K;
  schema: z.ZodType<JobPayload<K>>;
  /** Seconds to wait before attempt n+1 after n failures. */
  backoff?: (failures: number) => number;
  /**
   * Called once when the job gives up after maxAttempts (not for an invalid payload), so its
   * owner can record the failure (a webhook event marked failed, unblocking the next one).
   */
  onDead?: (db: Db, job: JobRun<JobPayload<K>>, error: string) => Promise<void>;
} & (
  | { run: (tx: Tx, job: JobRun<JobPayload<K>>) => Promise<void>; perform?: never }
  | { perform: (db: Db, job: JobRun<JobPayload<K>>) => Promise<void>; run?: never }
);

export function defineJob<K extends JobKind>(def: JobDefinition<K>): JobDefinition<K> {
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
