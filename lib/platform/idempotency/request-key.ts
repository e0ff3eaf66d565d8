import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import type { SQLWrapper } from "drizzle-orm";
import type { Db, Executor } from "@/db";
import { addSeconds, clock } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";
import type { DomainError } from "@/lib/platform/errors";
import { claimKey, completeKey, completeKeyWrite, existingKeyOutcome, releaseKey, releaseKeyWrite, renewKey, tryClaimKey, type KeyRef } from "./store";

/** A stored answer: replayed byte for byte under its key. */
export interface Answer {
  status: number;
  body: string;
}

export interface KeyTiming {
  /** How long a claim holds without a heartbeat: the bound on a dead request's lock. */
  lockSeconds: number;
  retentionSeconds: number;
  /** How often a live request renews its claim (a third of the lock by default). */
  heartbeatMs: number;
}

/**
 * Whether an error answer is kept under its Idempotency-Key. A request that never validated, a
 * throttle or a server fault is not an outcome: the client may fix it and retry with the same key.
 */
export function isOutcome(err: DomainError): boolean {
  return err.status < 500 && err.status !== 429 && !err.code.startsWith("validation.");
}

/** SHA-256 of method, path and canonical JSON body: a different request under the same key conflicts. */
export function fingerprintOf(method: string, path: string, body: unknown): string {
  let canonical = "";
  try {
    canonical = body === undefined ? "" : (canonicalize(body) ?? "");
  } catch {
    canonical = JSON.stringify(body);
  }
  return createHash("sha256").update(`${method} ${path}\n${canonical}`).digest("hex");
}

/**
 * One request's Idempotency-Key (decisions section 8), over the store: `earlier` answers a key
 * already used, `begin` claims it (committed as running, so a concurrent duplicate gets 409
 * retry_later), `complete` records the answer in the work's own transaction, `fail` settles a
 * request whose work did not commit. While the request runs a heartbeat renews the claim, so the
 * lock can be short: a request whose process died stops renewing and its key is free again within
 * `lockSeconds` (decisions: "Idempotency lock").
 */
export class RequestKey {
  private claimed = false;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private readonly timing: KeyTiming;

  constructor(
    readonly ref: KeyRef,
    timing: Partial<KeyTiming> = {},
  ) {
    const lockSeconds = timing.lockSeconds ?? config().IDEMPOTENCY_LOCK_SECONDS;
    this.timing = {
      lockSeconds,
      retentionSeconds: timing.retentionSeconds ?? config().IDEMPOTENCY_RETENTION_SECONDS,
      heartbeatMs: timing.heartbeatMs ?? (lockSeconds * 1000) / 3,
    };
  }

  /** Before validation: the answer of a key already used (a conflict is thrown), null when new. */
  async earlier(db: Db, now: Date): Promise<Answer | null> {
    const found = await existingKeyOutcome(db, this.ref, now);
    return found?.kind === "replay" ? { status: found.status, body: found.body } : null;
  }

  /**
   * `earlier` for the common case of a new key in one statement: a new key is claimed
   * at once, and only a key already present is read. A request that then fails validation or its
   * gate must `release` the claim, so nothing is stored against the key.
   */
  async claimOrEarlier(db: Db, now: Date): Promise<Answer | null> {
    if (await tryClaimKey(db, this.ref, this.claimTiming(now))) {
      this.claimed = true;
      this.startHeartbeat(db);
      return null;
    }
    return this.earlier(db, now);
  }

  /** Frees a claim taken before validation, for a request refused before its work. */
  async release(db: Db): Promise<void> {
    if (!this.claimed) return;
    this.claimed = false;
    this.stop();
    await releaseKey(db, this.ref).catch(() => undefined);
  }

  /** Claims the key for this request; returns the answer to replay instead when it was settled meanwhile. */
  async begin(db: Db, now: Date): Promise<Answer | null> {
    if (this.claimed) return null;
    const claim = await claimKey(db, this.ref, this.claimTiming(now));
    if (claim.kind === "replay") return { status: claim.status, body: claim.body };
    this.claimed = true;
    this.startHeartbeat(db);
    return null;
  }

  private claimTiming(now: Date) {
    return { now, lockSeconds: this.timing.lockSeconds, retentionSeconds: this.timing.retentionSeconds };
  }

  private startHeartbeat(db: Db): void {
    const renew = () => renewKey(db, this.ref, addSeconds(clock.now(), this.timing.lockSeconds)).catch(() => undefined);
    this.heartbeat = setInterval(() => void renew(), this.timing.heartbeatMs);
    this.heartbeat.unref();
  }

  /** Settles the key with the answer, in the transaction of the work it answers (or alone after a rollback). */
  async complete(executor: Executor, answer: Answer, error?: DomainError): Promise<void> {
    if (!this.claimed) return;
    this.stop();
    if (error && !isOutcome(error)) await releaseKey(executor, this.ref);
    else await completeKey(executor, this.ref, answer.status, answer.body);
  }

  /** complete() as a statement not yet run, for a unit of work to send with its effects (undefined: nothing to write). */
  completion(tx: Executor, answer: Answer, error?: DomainError): SQLWrapper | undefined {
    if (!this.claimed) return undefined;
    this.stop();
    return error && !isOutcome(error) ? releaseKeyWrite(tx, this.ref) : completeKeyWrite(tx, this.ref, answer.status, answer.body);
  }

  /** The work did not commit: a business refusal is kept as the key's answer; anything else frees the key. */
  async fail(db: Db, answer: Answer, error: DomainError): Promise<void> {
    await this.complete(db, answer, error).catch(() => undefined);
    this.stop();
  }

  private stop(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }
}
