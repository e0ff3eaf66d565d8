import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import type { Executor } from "@/db";
import { jobs } from "@/db/schema";
import { newId } from "@/db/ids";
import { notifyJobsDueSql } from "./notify";
import { writeTogether } from "@/db/write-together";
import { wakeWorker } from "./wake";
import { clock } from "@/lib/platform/clock";
import type { JobKind, JobPayload } from "./kinds";
import { currentCorrelationId } from "@/lib/platform/log/correlation";

export interface EnqueueOptions {
  runAt: Date;
  /** At most one waiting job per key: a second enqueue with the same key is a no-op. */
  dedupeKey?: string;
  maxAttempts?: number;
}

/**
 * Enqueues a job in the caller's transaction, so it exists exactly when the state change that
 * causes it commits.
 */
export async function enqueue<K extends JobKind>(tx: Executor, kind: K, payload: JobPayload<K>, opts: EnqueueOptions): Promise<void> {
  await insertJob(tx, kind, payload, opts);
}

/**
 * enqueue() for a kind known only at run time (the worker rescheduling a periodic job). A job due
 * now wakes the workers when the transaction commits (other processes' by NOTIFY, sent by the
 * insert's own statement on PostgreSQL; this process's by the unit of work, which asks jobDueIn(tx)
 * after its commit), or at once when the insert was a transaction of its own (the database handle).
 */
export async function insertJob(tx: Executor, kind: string, payload: unknown, opts: EnqueueOptions): Promise<void> {
  // A transaction that already sent the wake sends none again (PostgreSQL would fold it anyway).
  const due = opts.runAt.getTime() <= clock.now().getTime() && !notified.has(tx);
  const notify = due ? notifyJobsDueSql() : undefined;
  // One statement, one round trip: the insert as a CTE, the NOTIFY as its final select.
  if (notify) await writeTogether(tx, [{ name: "job_written", write: jobInsert(tx, kind, payload, opts) }], sql`select ${notify}`);
  else await jobInsert(tx, kind, payload, opts);
  if (!due) return;
  const inTransaction = tx instanceof PgTransaction;
  if (inTransaction) notified.add(tx);
  else wakeWorker();
}

/** enqueue() as a statement not yet run: the unit of work sends its jobs with its other effects. */
export function jobInsert(tx: Executor, kind: string, payload: unknown, opts: EnqueueOptions) {
  return tx
    .insert(jobs)
    .values({
      id: newId("job"),
      kind,
      payload: payload as Record<string, unknown>,
      state: "pending",
      runAt: opts.runAt,
      dedupeKey: opts.dedupeKey ?? null,
      maxAttempts: opts.maxAttempts ?? 25,
      // When it was enqueued, not when it is due (a delayed job's runAt is in the future).
      createdAt: clock.now(),
      correlationId: currentCorrelationId() ?? null,
    })
    .onConflictDoNothing();
}

/**
 * jobInsert() as a data-modifying CTE written only when `when` holds over the row of `from`
 * (another CTE of the same statement, e.g. `event_counter_0`): answers one row per job written.
 */
export function jobInsertWhen(kind: string, payload: unknown, opts: EnqueueOptions, from: string, when: SQL): SQL {
  const c = (col: { name: string }) => sql.identifier(col.name);
  const cols = [jobs.id, jobs.kind, jobs.payload, jobs.state, jobs.runAt, jobs.dedupeKey, jobs.maxAttempts, jobs.createdAt, jobs.correlationId];
  return sql`insert into ${jobs} (${sql.join(cols.map(c), sql`, `)})
    select ${newId("job")}, ${kind}, ${JSON.stringify(payload)}::jsonb, 'pending', ${sql.param(opts.runAt, jobs.runAt)}, ${opts.dedupeKey ?? null},
      ${opts.maxAttempts ?? 25}, ${sql.param(clock.now(), jobs.createdAt)}, ${currentCorrelationId() ?? null}
    from ${sql.identifier(from)} where ${when} on conflict do nothing returning 1`;
}

// Transactions that already sent the wake. (Not the database handle: each of its statements is
// a transaction of its own.)
const notified = new WeakSet<object>();

/** Whether a job due now was enqueued in this transaction (by enqueue(), not the unit's effects). */
export function jobDueIn(tx: object): boolean {
  return notified.has(tx);
}

/**
 * The dedupe key of the job that `kind` runs for the given ids ("transfers.expire:trf_1"): one
 * spelling, so an enqueue and a nudge of the same job always agree.
 */
export function dedupeKey(kind: JobKind, ...ids: [string, ...string[]]): string {
  return [kind, ...ids].join(":");
}

/** The one key of a periodic job's series (lib/platform/jobs/periodic.ts). */
export function periodicKey(kind: string): string {
  return `${kind}:periodic`;
}

/**
 * Moves a waiting job forward to now (the next event of a subscription after a delivery), as a
 * statement not yet run: the caller sends it with its other writes, and wakes this process's
 * worker (wakeWorker) when it moved one. A running one too: it may be about to wait (RetryLater),
 * and the worker then runs it again at once. `key`: the dedupe key, or a scalar subquery of it.
 */
export function nudgeJobStatement(db: Executor, key: string | SQL, now: Date) {
  return db
    .update(jobs)
    .set({ runAt: now })
    .where(and(eq(jobs.dedupeKey, key), inArray(jobs.state, ["pending", "running"])))
    .returning({ id: jobs.id });
}
