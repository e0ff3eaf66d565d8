import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { idempotencyKeys } from "@/db/schema";
import { addSeconds } from "@/lib/platform/clock";
import { DomainError } from "@/lib/platform/errors";
import { claimKey, completeKey, purgeExpiredKeys, releaseKey, type KeyRef, type Timing } from "@/lib/platform/idempotency/store";
import { freshDb } from "../../support/db";

let db: Db;
let close: () => Promise<void>;
before(async () => {
  ({ db, close } = await freshDb());
});
after(() => close());

// A fixed base time: claimKey takes `now` from its caller, so every case controls time exactly.
const T0 = new Date("2026-03-01T12:00:00.000Z");
const LOCK = 60;
const RETENTION = 86_400;
const at = (seconds: number): Timing => ({ now: addSeconds(T0, seconds), lockSeconds: LOCK, retentionSeconds: RETENTION });

function ref(overrides: Partial<KeyRef> = {}): KeyRef {
  return { scope: `sub_${randomUUID()}`, key: randomUUID(), fingerprint: "fp-a", ...overrides };
}

async function row(r: KeyRef) {
  const [found] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, r.scope), eq(idempotencyKeys.key, r.key)));
  return found;
}

/** Asserts that `promise` rejects with idempotency.conflict (409) and returns the error. */
async function rejectsWithConflict(promise: Promise<unknown>): Promise<DomainError> {
  let caught: unknown;
  await assert.rejects(promise, (err) => {
    caught = err;
    return true;
  });
  assert.ok(caught instanceof DomainError, `expected a DomainError, got ${String(caught)}`);
  assert.equal(caught.code, "idempotency.conflict");
  assert.equal(caught.status, 409);
  return caught;
}

describe("idempotency store", () => {
  it("claims a new key and records it as running with its lock and retention", async () => {
    const r = ref();
    assert.deepEqual(await claimKey(db, r, at(0)), { kind: "claimed" });
    const stored = await row(r);
    assert.equal(stored.state, "running");
    assert.equal(stored.fingerprint, "fp-a");
    assert.equal(stored.lockedUntil.toISOString(), addSeconds(T0, LOCK).toISOString());
    assert.equal(stored.expiresAt.toISOString(), addSeconds(T0, RETENTION).toISOString());
    assert.equal(stored.responseStatus, null);
    assert.equal(stored.responseBody, null);
  });

  it("replays the exact status and body bytes after completion", async () => {
    const r = ref();
    assert.equal((await claimKey(db, r, at(0))).kind, "claimed");
    // Bytes a re-serialisation would change: key order, spacing, escapes, non-ASCII, trailing newline.
    const body = '{"z":1,  "a":"caf\\u00e9 — ünïcödé 💸","n":1.50,"e":1e3,"nested":{"b":[ 3,2,1 ]}}\n';
    await db.transaction(async (tx) => completeKey(tx, r, 201, body));
    for (const seconds of [1, 120, RETENTION - 1]) {
      const replay = await claimKey(db, r, at(seconds));
      assert.equal(replay.kind, "replay");
      if (replay.kind !== "replay") return;
      assert.equal(replay.status, 201);
      assert.equal(replay.body, body);
      assert.ok(Buffer.from(replay.body, "utf8").equals(Buffer.from(body, "utf8")));
    }
    // Replays never rewrite the stored record.
    const stored = await row(r);
    assert.equal(stored.state, "done");
    assert.equal(stored.createdAt.toISOString(), T0.toISOString());
  });

  it("replays an empty body (204) as empty, and a recorded error response as is", async () => {
    const empty = ref();
    await claimKey(db, empty, at(0));
    await completeKey(db, empty, 204, "");
    assert.deepEqual(await claimKey(db, empty, at(1)), { kind: "replay", status: 204, body: "" });

    const failed = ref();
    await claimKey(db, failed, at(0));
    const envelope = JSON.stringify({ error: { code: "beneficiary.notFound", message: "No such beneficiary." }, correlationId: "c-1" });
    await completeKey(db, failed, 404, envelope);
    assert.deepEqual(await claimKey(db, failed, at(1)), { kind: "replay", status: 404, body: envelope });
  });

  it("a different request under a used key is idempotency.conflict (no retry hint), and does not touch the record", async () => {
    const r = ref();
    await claimKey(db, r, at(0));
    await completeKey(db, r, 200, '{"ok":true}');
    const err = await rejectsWithConflict(claimKey(db, { ...r, fingerprint: "fp-b" }, at(5)));
    assert.notEqual(err.hint, "retry_later");
    const stored = await row(r);
    assert.equal(stored.fingerprint, "fp-a");
    assert.equal(stored.responseBody, '{"ok":true}');
    // The original request still replays.
    assert.deepEqual(await claimKey(db, r, at(6)), { kind: "replay", status: 200, body: '{"ok":true}' });
  });

  it("a different request under a key still running is a conflict too", async () => {
    const r = ref();
    await claimKey(db, r, at(0));
    await rejectsWithConflict(claimKey(db, { ...r, fingerprint: "fp-b" }, at(1)));
  });

  it("while the first request runs and its lock holds: conflict with hint retry_later", async () => {
    const r = ref();
    await claimKey(db, r, at(0));
    for (const seconds of [0, 1, LOCK - 1]) {
      const err = await rejectsWithConflict(claimKey(db, r, at(seconds)));
      assert.equal(err.hint, "retry_later");
      assert.equal(err.remediation, "retry_later");
    }
    const stored = await row(r);
    assert.equal(stored.state, "running");
    assert.equal(stored.lockedUntil.toISOString(), addSeconds(T0, LOCK).toISOString(), "a refused duplicate must not extend the lock");
  });

  it("a running key whose lock expired is taken over (claimed again, with a fresh lock)", async () => {
    const r = ref();
    await claimKey(db, r, at(0));
    assert.deepEqual(await claimKey(db, r, at(LOCK)), { kind: "claimed" });
    const stored = await row(r);
    assert.equal(stored.state, "running");
    assert.equal(stored.lockedUntil.toISOString(), addSeconds(T0, 2 * LOCK).toISOString());
    // The new holder's lock is respected in turn.
    const err = await rejectsWithConflict(claimKey(db, r, at(LOCK + 1)));
    assert.equal(err.hint, "retry_later");
  });

  it("an expired lock of a different request is still a conflict (not a take-over)", async () => {
    const r = ref();
    await claimKey(db, r, at(0));
    await rejectsWithConflict(claimKey(db, { ...r, fingerprint: "fp-b" }, at(LOCK + 10)));
    assert.equal((await row(r)).fingerprint, "fp-a");
  });

  it("a key past its retention is claimed afresh, whatever the request", async () => {
    const r = ref();
    await claimKey(db, r, at(0));
    await completeKey(db, r, 200, '{"old":true}');
    assert.deepEqual(await claimKey(db, { ...r, fingerprint: "fp-b" }, at(RETENTION)), { kind: "claimed" });
    const stored = await row(r);
    assert.equal(stored.state, "running");
    assert.equal(stored.fingerprint, "fp-b");
    assert.equal(stored.responseBody, null);
    assert.equal(stored.responseStatus, null);
    assert.equal(stored.expiresAt.toISOString(), addSeconds(T0, 2 * RETENTION).toISOString());
  });

  it("scopes are isolated: the same key claims in two scopes, and completing one does not affect the other", async () => {
    const key = randomUUID();
    const a = ref({ scope: `sub_a_${randomUUID()}`, key });
    const b = ref({ scope: `sub_b_${randomUUID()}`, key, fingerprint: "fp-other" });
    assert.equal((await claimKey(db, a, at(0))).kind, "claimed");
    assert.equal((await claimKey(db, b, at(0))).kind, "claimed");
    await completeKey(db, a, 201, '{"scope":"a"}');
    assert.deepEqual(await claimKey(db, a, at(1)), { kind: "replay", status: 201, body: '{"scope":"a"}' });
    assert.equal((await rejectsWithConflict(claimKey(db, b, at(1)))).hint, "retry_later");
    assert.equal((await row(b)).state, "running");
  });

  it("10 concurrent claims of one key: exactly one claimed, the other nine retry_later conflicts", async () => {
    for (let round = 0; round < 3; round++) {
      const r = ref();
      const results = await Promise.allSettled(Array.from({ length: 10 }, () => claimKey(db, r, at(0))));
      const claimed = results.filter((s) => s.status === "fulfilled" && s.value.kind === "claimed");
      const conflicts = results.filter(
        (s): s is PromiseRejectedResult => s.status === "rejected" && s.reason instanceof DomainError && s.reason.code === "idempotency.conflict",
      );
      assert.equal(claimed.length, 1, `round ${round}: ${JSON.stringify(results.map((s) => (s.status === "fulfilled" ? s.value : String(s.reason))))}`);
      assert.equal(conflicts.length, 9);
      for (const c of conflicts) assert.equal((c.reason as DomainError).hint, "retry_later");
    }
  });

  it("10 concurrent take-overs of an expired lock: exactly one claimed", async () => {
    const r = ref();
    await claimKey(db, r, at(0));
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => claimKey(db, r, at(LOCK + 5))));
    assert.equal(results.filter((s) => s.status === "fulfilled" && s.value.kind === "claimed").length, 1);
    assert.equal(results.filter((s) => s.status === "rejected" && (s.reason as DomainError).code === "idempotency.conflict").length, 9);
  });

  it("10 concurrent claims of a completed key all replay", async () => {
    const r = ref();
    await claimKey(db, r, at(0));
    await completeKey(db, r, 200, '{"done":1}');
    const results = await Promise.all(Array.from({ length: 10 }, () => claimKey(db, r, at(1))));
    for (const result of results) assert.deepEqual(result, { kind: "replay", status: 200, body: '{"done":1}' });
  });

  it("releaseKey frees a running key so the retry runs again", async () => {
    const r = ref();
    await claimKey(db, r, at(0));
    await releaseKey(db, r);
    assert.equal(await row(r), undefined);
    assert.deepEqual(await claimKey(db, r, at(1)), { kind: "claimed" });
  });

  it("releaseKey leaves a completed key alone (its response keeps replaying)", async () => {
    const r = ref();
    await claimKey(db, r, at(0));
    await completeKey(db, r, 201, '{"id":"x"}');
    await releaseKey(db, r);
    assert.deepEqual(await claimKey(db, r, at(1)), { kind: "replay", status: 201, body: '{"id":"x"}' });
  });

  it("completeKey in a transaction that rolls back leaves the key running (never done without the work)", async () => {
    const r = ref();
    await claimKey(db, r, at(0));
    await assert.rejects(
      db.transaction(async (tx) => {
        await completeKey(tx, r, 201, '{"id":"y"}');
        throw new Error("the work failed");
      }),
      /the work failed/,
    );
    const stored = await row(r);
    assert.equal(stored.state, "running");
    assert.equal(stored.responseBody, null);
  });

  it("purgeExpiredKeys deletes only keys past their retention", async () => {
    const scope = `sub_purge_${randomUUID()}`;
    const old = ref({ scope });
    const young = ref({ scope });
    const runningOld = ref({ scope });
    await claimKey(db, old, at(0));
    await completeKey(db, old, 200, "{}");
    await claimKey(db, runningOld, at(0));
    await claimKey(db, young, at(3600));
    await completeKey(db, young, 200, "{}");

    // Nothing is past retention yet.
    await purgeExpiredKeys(db, at(RETENTION - 1).now);
    assert.ok(await row(old));

    const purged = await purgeExpiredKeys(db, at(RETENTION + 1).now);
    assert.ok(purged >= 2, `purged ${purged}`);
    assert.equal(await row(old), undefined);
    assert.equal(await row(runningOld), undefined);
    assert.ok(await row(young), "a key inside its retention must survive");
    assert.equal((await claimKey(db, young, at(RETENTION + 2))).kind, "replay");
  });
});
