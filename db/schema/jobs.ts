import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";

/** A job's life: pending, running (claimed under a lease), then done or dead. */
export type JobState = "pending" | "running" | "done" | "dead";

/**
 * Durable jobs (lib/platform/jobs): enqueued in the transaction of the state change that causes them,
 * claimed with FOR UPDATE SKIP LOCKED, run at least once with retries and backoff.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    /** dead: gave up after maxAttempts, or its kind or payload was unknown. */
    state: text("state").$type<JobState>().notNull().default("pending"),
    runAt: tstz("run_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(25),
    /** A claimed job is invisible to other workers until then (a crashed worker's job comes back). */
    lockedUntil: tstz("locked_until"),
    /**
     * The claim that holds a running job (one per claim): the holder's heartbeat and outcome
     * writes check it, so a worker that lost the job to another cannot touch it.
     */
    lockedBy: text("locked_by"),
    lastError: text("last_error"),
    /** One cause never has two live (pending or running) jobs: `dedupeKey(kind, ...ids)` of lib/platform/jobs/queue.ts, e.g. "transfers.expire:<id>". */
    dedupeKey: text("dedupe_key"),
    createdAt: createdAt(),
    finishedAt: tstz("finished_at"),
    /** The correlation id of the request or job that enqueued it: its run logs under it (lib/platform/log/correlation.ts). */
    correlationId: text("correlation_id"),
  },
  // The claim query: due pending jobs in run_at order (and running ones whose lease ran out).
  (t) => [
    index("jobs_due_idx").on(t.state, t.runAt),
    uniqueIndex("jobs_dedupe_idx")
      .on(t.dedupeKey)
      .where(sql`state in ('pending', 'running')`),
  ],
);
