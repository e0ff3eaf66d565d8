import { and, eq, lt } from "drizzle-orm";
import type { Db, Executor, Tx } from "@/db";
import { idempotencyKeys } from "@/db/schema";
import { addSeconds } from "@/lib/platform/clock";
import { DomainError } from "@/lib/platform/errors";
import { inUnit } from "@/lib/platform/unit-of-work";

/**
 * The Idempotency-Key store of decisions section 8. A key is claimed (committed as "running")
 * before the work starts, so a concurrent duplicate sees it and gets 409 retry_later instead of
 * running twice; the response is recorded in the same transaction as the work, so a crash can
 * never leave the work done but the key unrecorded.
 */
export interface KeyRef {
  scope: string;
  key: string;
  fingerprint: string;
}

export type Claim = { kind: "claimed" } | { kind: "replay"; status: number; body: string };

export interface Timing {
  now: Date;
  lockSeconds: number;
  retentionSeconds: number;
}

const conflict = (message: string, hint?: string) =>
  new DomainError("idempotency.conflict", {
    message,
    hint,
    remediation: hint === "retry_later" ? "retry_later" : undefined,
  });

/**
 * The answer for a key that was already used, before the request is even validated: a replay, a
 * conflict, or null when the key is new (or past retention) and the request should go on.
 */
export async function existingKeyOutcome(db: Db, ref: KeyRef, now: Date): Promise<Claim | null> {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, ref.scope), eq(idempotencyKeys.key, ref.key)));
  if (!row || row.expiresAt.getTime() <= now.getTime()) return null;
  if (row.fingerprint !== ref.fingerprint) {
    throw conflict("This Idempotency-Key was used for a different request. Use a new key for a new request.");
  }
  if (row.state === "running") {
    if (row.lockedUntil.getTime() > now.getTime()) throw conflict("A request with this Idempotency-Key is still in progress.", "retry_later");
    return null;
  }
  return { kind: "replay", status: row.responseStatus ?? 500, body: row.responseBody ?? "" };
}

const freshKey = (ref: KeyRef, t: Timing) => ({
  ...ref,
  state: "running" as const,
  lockedUntil: addSeconds(t.now, t.lockSeconds),
  expiresAt: addSeconds(t.now, t.retentionSeconds),
  createdAt: t.now,
  responseStatus: null,
  responseBody: null,
});

/** Claims a key nobody holds (one insert); false when a row for it exists, whatever its state. */
export async function tryClaimKey(db: Db, ref: KeyRef, t: Timing): Promise<boolean> {
  const inserted = await db.insert(idempotencyKeys).values(freshKey(ref, t)).onConflictDoNothing().returning({ key: idempotencyKeys.key });
  return inserted.length > 0;
}

export async function claimKey(db: Db, ref: KeyRef, t: Timing): Promise<Claim> {
  const fresh = freshKey(ref, t);
  if (await tryClaimKey(db, ref, t)) return { kind: "claimed" };

  return inUnit(
    async ({ tx }) => {
      // Lock the row: two retries arriving together must not both take over a stale key.
      const [row] = await tx
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.scope, ref.scope), eq(idempotencyKeys.key, ref.key)))
        .for("update");
      if (!row) throw conflict("The Idempotency-Key is being released; retry.", "retry_later");
      const takeOver = async (): Promise<Claim> => {
        await tx
          .update(idempotencyKeys)
          .set(fresh)
          .where(and(eq(idempotencyKeys.scope, ref.scope), eq(idempotencyKeys.key, ref.key)));
        return { kind: "claimed" };
      };
      if (row.expiresAt.getTime() <= t.now.getTime()) return takeOver();
      if (row.fingerprint !== ref.fingerprint) {
        throw conflict("This Idempotency-Key was used for a different request. Use a new key for a new request.");
      }
      if (row.state === "running") {
        // The first request is still working (or died; after lockedUntil the key may be taken over).
        if (row.lockedUntil.getTime() > t.now.getTime()) {
          throw conflict("A request with this Idempotency-Key is still in progress.", "retry_later");
        }
        return takeOver();
      }
      return { kind: "replay", status: row.responseStatus ?? 500, body: row.responseBody ?? "" };
    },
    { db },
  );
}

/** Records the response in the transaction that did the work. */
export async function completeKey(tx: Executor, ref: KeyRef, status: number, body: string): Promise<void> {
  await completeKeyWrite(tx, ref, status, body);
}

/** completeKey's statement, not yet run (sent with a unit's effects). */
export function completeKeyWrite(tx: Executor, ref: KeyRef, status: number, body: string) {
  return tx
    .update(idempotencyKeys)
    .set({ state: "done", responseStatus: status, responseBody: body })
    .where(and(eq(idempotencyKeys.scope, ref.scope), eq(idempotencyKeys.key, ref.key)));
}

/** Heartbeat of a live request: pushes its lock forward (a dead one stops renewing and lapses). */
export async function renewKey(db: Db, ref: KeyRef, lockedUntil: Date): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ lockedUntil })
    .where(and(eq(idempotencyKeys.scope, ref.scope), eq(idempotencyKeys.key, ref.key), eq(idempotencyKeys.state, "running")));
}

/** Frees a key whose request failed in a retryable way (5xx, 429), so a retry runs again. */
export async function releaseKey(db: Executor, ref: KeyRef): Promise<void> {
  await releaseKeyWrite(db, ref);
}

/** releaseKey's statement, not yet run (sent with a unit's effects). */
export function releaseKeyWrite(db: Executor, ref: KeyRef) {
  return db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.scope, ref.scope), eq(idempotencyKeys.key, ref.key), eq(idempotencyKeys.state, "running")));
}

/** Housekeeping: keys past their retention (run by a periodic job). */
export async function purgeExpiredKeys(db: Db | Tx, now: Date): Promise<number> {
  // lt() maps the Date through the column (a raw sql`` Date parameter fails on postgres-js).
  const rows = await db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, now)).returning({ key: idempotencyKeys.key });
  return rows.length;
}
