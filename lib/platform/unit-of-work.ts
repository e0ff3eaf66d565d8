import type { Tx } from "@/db";
import { DomainError } from "@/lib/errors";
import { unexpected } from "@/lib/http/envelope";
import { wakeWorker } from "@/lib/jobs/wake";
import { logger } from "@/lib/log";
import { ready } from "./ready";

/** How a unit of work ended: its value, or the error it answers with (and whether its writes stand). */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: DomainError; committed: boolean };

export interface UnitOfWorkOptions<T> {
  /**
   * Runs in the same transaction once the outcome is known and the writes are to commit (success,
   * or a keepChanges error): e.g. the Idempotency-Key records the answer with the work it answers.
   */
  seal?: (tx: Tx, outcome: Outcome<T>) => Promise<void>;
  /** Fields logged with an unexpected error (route, operator, correlation id). */
  context?: Record<string, unknown>;
  /** Whether a commit wakes the job worker (default true; reads pass false). */
  wake?: boolean;
}

/** Thrown inside the transaction to roll it back while keeping the error as the outcome. */
class Rollback extends Error {
  constructor(readonly error: DomainError) {
    super(error.code);
  }
}

/**
 * The one way a state change runs, whoever asks (API endpoint, webview action, console action,
 * page): the domain call in one transaction, so its rows, jobs, events and postings commit
 * together. A DomainError is the answer; with `keepChanges` (a counted failure, an expiry found on
 * the way) its writes commit with it, any other error rolls everything back. Anything that is not
 * a DomainError is logged and becomes `server.unexpected`. Jobs written by a commit wake the worker.
 */
export async function unitOfWork<T>(work: (tx: Tx) => Promise<T>, options: UnitOfWorkOptions<T> = {}): Promise<Outcome<T>> {
  try {
    const db = await ready();
    const outcome = await db.transaction(async (tx): Promise<Outcome<T>> => {
      let settled: Outcome<T>;
      try {
        settled = { ok: true, value: await work(tx) };
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        if (!err.keepChanges) throw new Rollback(err);
        settled = { ok: false, error: err, committed: true };
      }
      await options.seal?.(tx, settled);
      return settled;
    });
    if (options.wake !== false) wakeWorker();
    return outcome;
  } catch (err) {
    if (err instanceof Rollback) return { ok: false, error: err.error, committed: false };
    if (err instanceof DomainError) return { ok: false, error: err, committed: false };
    logger().error({ err, ...options.context }, "unexpected error");
    return { ok: false, error: unexpected(), committed: false };
  }
}

/**
 * Work done before a unit of work opens (a remote fetch: no network call inside a transaction),
 * with the same error mapping: a DomainError is the outcome, anything else is logged and becomes
 * `server.unexpected`.
 */
export async function outside<T>(work: () => Promise<T>, context: Record<string, unknown> = {}): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (err) {
    if (err instanceof DomainError) return { ok: false, error: err, committed: false };
    logger().error({ err, ...context }, "unexpected error");
    return { ok: false, error: unexpected(), committed: false };
  }
}
