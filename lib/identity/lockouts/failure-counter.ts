import { and, count, eq, gt, inArray, lt, min, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { newId } from "@/db/ids";
import { failureEvents } from "@/db/schema";
import { addSeconds } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";

/**
 * Sliding-window failure counting for lockouts (login failures, bad device assertions, console
 * sign-ins) and rate limits (OTP sends): a scope is locked while it has `limit` events in the last
 * `windowSeconds`.
 */
export interface Window {
  limit: number;
  windowSeconds: number;
}

/**
 * Serialises the transactions that check and count failures of one scope, until the caller's
 * transaction ends. Without it, concurrent requests on PostgreSQL (read committed) all see the
 * count below the limit and all get a guess: the lockout would not bound parallel attempts.
 */
export async function lockScope(tx: Executor, scope: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${scope}, 0))`);
}

export async function recordFailure(tx: Executor, scope: string, now: Date): Promise<void> {
  await tx.insert(failureEvents).values({ id: newId("fail"), scope, occurredAt: now });
}

/** Seconds until the scope unlocks, or 0 when it is not locked. */
export async function lockedForSeconds(db: Executor, scope: string, w: Window, now: Date): Promise<number> {
  return lockedForSecondsAny(db, [scope], w, now);
}

/** lockedForSeconds of the most locked of several scopes under one window, in one query. */
export async function lockedForSecondsAny(db: Executor, scopes: string[], w: Window, now: Date): Promise<number> {
  const since = addSeconds(now, -w.windowSeconds);
  const rows = await db
    .select({ n: count(), oldest: min(failureEvents.occurredAt) })
    .from(failureEvents)
    .where(and(scopes.length === 1 ? eq(failureEvents.scope, scopes[0]) : inArray(failureEvents.scope, scopes), gt(failureEvents.occurredAt, since)))
    .groupBy(failureEvents.scope);
  return lockedForSecondsOf(rows, w, now);
}

/**
 * lockedForSecondsAny of counts already read (a caller that reads them in its own statement):
 * each scope's failures in the window and the oldest of them.
 */
export function lockedForSecondsOf(rows: { n: number; oldest: Date | string | null }[], w: Window, now: Date): number {
  return Math.max(0, ...rows.map((row) => waitFor(row, w, now)));
}

function waitFor(row: { n: number; oldest: Date | string | null }, w: Window, now: Date): number {
  if (row.n < w.limit || !row.oldest) return 0;
  // Locked until enough failures age out of the window; the oldest is the first to go.
  const oldest = row.oldest instanceof Date ? row.oldest : new Date(row.oldest);
  // Clamped to the window: a request that read the clock just before a parallel one recorded its
  // failure would otherwise compute a wait a little longer than the window itself.
  return Math.min(w.windowSeconds, Math.max(1, Math.ceil((oldest.getTime() + w.windowSeconds * 1000 - now.getTime()) / 1000)));
}

/** How many failures the scope has in the last `windowSeconds`. */
export async function countFailures(db: Executor, scope: string, windowSeconds: number, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(failureEvents)
    .where(and(eq(failureEvents.scope, scope), gt(failureEvents.occurredAt, addSeconds(now, -windowSeconds))));
  return row?.n ?? 0;
}

export async function clearFailures(tx: Executor, scope: string): Promise<void> {
  await tx.delete(failureEvents).where(eq(failureEvents.scope, scope));
}

/** A sliding-window limit on one scope (sends per identifier, per client address...). */
export interface ScopedWindow extends Window {
  scope: string;
}

/**
 * Rate limiting on the same counter: admits one event against every window, counting it under
 * each scope, or refuses it and counts nothing. Returns 0 when admitted, else the seconds until
 * every full window has room again. Scopes are locked in the order given (callers use one fixed
 * order), so parallel requests are counted exactly and never wait on each other crosswise.
 */
export async function admitEvent(tx: Executor, windows: ScopedWindow[], now: Date): Promise<number> {
  for (const w of windows) await lockScope(tx, w.scope);
  let wait = 0;
  for (const w of windows) wait = Math.max(wait, await lockedForSeconds(tx, w.scope, w, now));
  if (wait > 0) return wait;
  for (const w of windows) await recordFailure(tx, w.scope, now);
  return 0;
}

/** The longest window any counter looks back over: rows older than it count for nothing. */
function longestWindowSeconds(): number {
  const c = config();
  return Math.max(
    c.LOCKOUT_SECONDS,
    c.LOGIN_FAILURE_WINDOW_SECONDS,
    c.OTP_SEND_IDENTIFIER_WINDOW_SECONDS,
    c.OTP_SEND_ADDRESS_WINDOW_SECONDS,
    c.OTP_VERIFY_IDENTIFIER_WINDOW_SECONDS,
    c.CONSOLE_LOGIN_FAILURE_WINDOW_SECONDS,
    // Declines are counted over a funding session's whole life (lib/payments/transfers/funding.ts).
    c.FUNDING_TTL_SECONDS,
  );
}

/** Housekeeping (maintenance.purge): drops counted events no window can see any more. */
export async function purgeStaleFailures(tx: Executor, now: Date): Promise<void> {
  await tx.delete(failureEvents).where(lt(failureEvents.occurredAt, addSeconds(now, -longestWindowSeconds())));
}
