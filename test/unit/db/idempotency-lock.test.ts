/**
 * The Idempotency-Key lock (decisions "Idempotency lock"): a request that died
 * holding its key frees it within IDEMPOTENCY_LOCK_SECONDS, well inside the quote TTL and the
 * assertion age, so a client retrying a crashed accept or confirm with the same key proceeds; a
 * live request renews its claim and keeps it however long it runs.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, describe, it } from "node:test";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { idempotencyKeys } from "@/db/schema";
import { addSeconds, clock } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";
import { DomainError } from "@/lib/platform/errors";
import { RequestKey } from "@/lib/platform/idempotency/request-key";
import { claimKey, type KeyRef } from "@/lib/platform/idempotency/store";
import { freshDb } from "../../support/db";

let db: Db;
let close: () => Promise<void>;
before(async () => {
  ({ db, close } = await freshDb());
});
after(() => close());

const ref = (): KeyRef => ({ scope: `sub_${randomUUID()}`, key: randomUUID(), fingerprint: "fp" });

async function row(r: KeyRef) {
  const [found] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, r.scope), eq(idempotencyKeys.key, r.key)));
  return found;
}

async function retryLater(promise: Promise<unknown>) {
  await assert.rejects(promise, (err) => err instanceof DomainError && err.code === "idempotency.conflict" && err.remediation === "retry_later");
}

describe("idempotency lock", () => {
  it("is shorter than the quote TTL and the assertion age it must not outlive", () => {
    const c = config();
    assert.ok(c.IDEMPOTENCY_LOCK_SECONDS <= 10, `lock ${c.IDEMPOTENCY_LOCK_SECONDS} s`);
    assert.ok(c.IDEMPOTENCY_LOCK_SECONDS * 3 <= c.QUOTE_TTL_SECONDS, "a crashed accept leaves time to retry within the quote's life");
    assert.ok(c.IDEMPOTENCY_LOCK_SECONDS * 3 <= c.ASSERTION_MAX_AGE_SECONDS, "and within the assertion's age");
  });

  it("a request that died holding the key: a retry with the same key is refused while the lock holds, then proceeds within the bound", async () => {
    const r = ref();
    const lock = config().IDEMPOTENCY_LOCK_SECONDS;
    const t0 = clock.now();
    // What a killed process leaves behind: a committed claim that nobody renews any more.
    await claimKey(db, r, { now: t0, lockSeconds: lock, retentionSeconds: 86_400 });

    await retryLater(new RequestKey(r).begin(db, addSeconds(t0, 1)));
    const retry = new RequestKey(r);
    assert.equal(await retry.begin(db, addSeconds(t0, lock + 0.001)), null, `the retry claims the key ${lock} s after the last sign of life`);
    await retry.complete(db, { status: 200, body: "{}" });
    assert.equal((await row(r)).state, "done");
  });

  it("a live request renews its claim (heartbeat), so a duplicate is still refused long after the lock period", async () => {
    const r = ref();
    const live = new RequestKey(r, { lockSeconds: 10, heartbeatMs: 20 });
    assert.equal(await live.begin(db, clock.now()), null);
    const firstLock = (await row(r)).lockedUntil.getTime();
    clock.advance(25_000); // the request has now run longer than its lock
    await sleep(200); // heartbeats fire meanwhile
    const renewed = (await row(r)).lockedUntil.getTime();
    assert.ok(renewed >= firstLock + 25_000, `renewed to ${new Date(renewed).toISOString()}`);
    await retryLater(new RequestKey(r).begin(db, clock.now()));

    await live.complete(db, { status: 201, body: '{"ok":true}' });
    const done = await row(r);
    assert.equal(done.state, "done");
    assert.equal(done.responseStatus, 201);
    // The heartbeat stopped: the lock no longer moves.
    const settled = done.lockedUntil.getTime();
    clock.advance(25_000);
    await sleep(100);
    assert.equal((await row(r)).lockedUntil.getTime(), settled);
    assert.deepEqual(await new RequestKey(r).begin(db, clock.now()), { status: 201, body: '{"ok":true}' }, "a retry replays the answer");
  });

  it("fail keeps a business refusal as the answer and frees the key after a fault", async () => {
    const refused = ref();
    const a = new RequestKey(refused, { heartbeatMs: 60_000 });
    await a.begin(db, clock.now());
    await a.fail(db, { status: 409, body: "refused" }, new DomainError("transfer.stateInvalid", { message: "no" }));
    assert.equal((await row(refused)).state, "done");

    const faulted = ref();
    const b = new RequestKey(faulted, { heartbeatMs: 60_000 });
    await b.begin(db, clock.now());
    await b.fail(db, { status: 500, body: "fault" }, new DomainError("server.unexpected", { message: "x" }));
    assert.equal(await row(faulted), undefined, "a retry runs again");
  });

  it("claimOrEarlier claims a new key in one go, answers a used one, and a refused request's claim is released", async () => {
    const r = ref();
    const first = new RequestKey(r, { heartbeatMs: 60_000 });
    assert.equal(await first.claimOrEarlier(db, clock.now()), null);
    assert.equal((await row(r)).state, "running");
    await retryLater(new RequestKey(r).claimOrEarlier(db, clock.now()));
    await assert.rejects(
      new RequestKey({ ...r, fingerprint: "other" }).claimOrEarlier(db, clock.now()),
      (err) => err instanceof DomainError && err.code === "idempotency.conflict" && !err.remediation,
    );
    assert.equal(await first.begin(db, clock.now()), null, "begin after a claim is a no-op");
    await first.complete(db, { status: 201, body: "made" });
    assert.deepEqual(await new RequestKey(r).claimOrEarlier(db, clock.now()), { status: 201, body: "made" });

    // Validation or the gate refused after the claim: nothing stays against the key.
    const refused = ref();
    const a = new RequestKey(refused, { heartbeatMs: 60_000 });
    assert.equal(await a.claimOrEarlier(db, clock.now()), null);
    await a.release(db);
    assert.equal(await row(refused), undefined);
    await a.fail(db, { status: 422, body: "invalid" }, new DomainError("transfer.stateInvalid", { message: "no" }));
    assert.equal(await row(refused), undefined, "a released claim is not settled afterwards");
  });
});
