/**
 * Jobs isolate one another: a hard timeout per kind, a short lease kept alive by
 * a heartbeat, lanes and per-group limits in one worker, a fast-check that does not wait behind a
 * webhook endpoint that never answers, and a killed worker's jobs rerunning within seconds. Also
 * the periodic jobs scheduled once however many nodes start. Real time here:
 * nothing in this file moves the clock.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import path from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import { and, eq, ne, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { customers, events, failureEvents, idempotencyKeys, jobs, partners, subscriptions } from "@/db/schema";
import { addSeconds, clock } from "@/lib/platform/clock";
import { emitEvent } from "@/lib/partners/events/emit";
import { claim } from "@/lib/platform/jobs/claim";
import type { JobRegistry, JobRun } from "@/lib/platform/jobs/define";
import type { JobKind } from "@/lib/platform/jobs/kinds";
import { workerSettings, type WorkerSettings } from "@/lib/platform/jobs/lanes";
import { schedulePeriodicJobs } from "@/lib/platform/jobs/periodic";
import { JobPool } from "@/lib/platform/jobs/pool";
import { enqueue, insertJob, periodicKey } from "@/lib/platform/jobs/queue";
import { jobRegistry } from "@/lib/operations/runtime/job-registry";
import { startWorkerLoop } from "@/lib/platform/jobs/run-loop";
import { runDueJobs } from "@/lib/platform/jobs/worker";
import { freshDbPair } from "../../support/db";
import { registeredTransfer } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;
/** A second node's database: its own connection pool on PostgreSQL (PGlite has one connection). */
let db2: Db;

before(async () => {
  ({ db, db2, close } = await freshDbPair());
});

after(() => close());

beforeEach(async () => {
  // The PostgreSQL database is shared by every file of a run: start each case from no jobs.
  await db.delete(jobs);
  held.clear();
  runs.length = 0;
});

// ---- Test-only job kinds -----------------------------------------------------------------------

type Payload = { tag: string; group?: string; ms?: number };
const payloadSchema = z.strictObject({ tag: z.string(), group: z.string().optional(), ms: z.number().optional() });
const runs: { kind: string; tag: string; attempt: number; aborted?: boolean }[] = [];
/** Tags of `test.slowRun` runs whose body has returned (their transaction ends right after). */
const runEnded = new Set<string>();
/** Jobs held open until the test releases them, by tag. */
const held = new Map<string, () => void>();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs until released (ignoring its abort signal, as a stuck job would). */
const hold = (kind: string) => ({
  kind,
  schema: payloadSchema,
  perform: async (_db: Db, job: JobRun<Payload>) => {
    const entry = { kind, tag: job.payload.tag, attempt: job.attempt, aborted: false };
    runs.push(entry);
    job.signal.addEventListener("abort", () => (entry.aborted = true));
    await new Promise<void>((resolve) => held.set(job.payload.tag, resolve));
  },
});

const registry: JobRegistry = {
  "test.hold": hold("test.hold"),
  "test.hold2": hold("test.hold2"),
  "test.hold3": hold("test.hold3"),
  /** Takes `ms` of real time. */
  "test.slow": {
    kind: "test.slow",
    schema: payloadSchema,
    perform: async (_db: Db, job: JobRun<Payload>) => {
      runs.push({ kind: "test.slow", tag: job.payload.tag, attempt: job.attempt });
      await sleep(job.payload.ms ?? 0);
    },
  },
  /** Writes a marker in its transaction, then takes `ms` ignoring its signal. */
  "test.slowRun": {
    kind: "test.slowRun",
    schema: payloadSchema,
    run: async (tx, job: JobRun<Payload>) => {
      runs.push({ kind: "test.slowRun", tag: job.payload.tag, attempt: job.attempt });
      await tx.insert(idempotencyKeys).values({
        scope: "test.slowRun",
        key: `${job.payload.tag}:${job.attempt}`,
        fingerprint: "marker",
        state: "done",
        lockedUntil: job.now,
        expiresAt: addSeconds(job.now, 3600),
        createdAt: job.now,
      });
      await sleep(job.payload.ms ?? 0);
      runEnded.add(job.payload.tag);
    },
  },
};

async function add(kind: string, payload: Payload, maxAttempts?: number) {
  await enqueue(db, kind as JobKind, payload as never, { runAt: clock.now(), maxAttempts });
}

async function jobTagged(tag: string) {
  const rows = await db
    .select()
    .from(jobs)
    .where(sql`${jobs.payload}->>'tag' = ${tag}`);
  assert.equal(rows.length, 1, `one job tagged ${tag}`);
  return rows[0];
}

function settings(overrides: Partial<WorkerSettings> = {}): WorkerSettings {
  return { ...workerSettings(), ...overrides };
}

async function until<T>(check: () => Promise<T | undefined | false> | T | undefined | false, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (performance.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

// ---- Timeouts and heartbeat --------------------------------------------------------------------

describe("jobs: hard timeout per kind", () => {
  it("a run past its kind's timeout is aborted and counts as a failed attempt; the last one is dead", async () => {
    await add("test.hold", { tag: "stuck" }, 2);
    const s = settings({ timeoutMs: (kind) => (kind === "test.hold" ? 200 : 30_000) });
    const started = performance.now();
    assert.equal(await runDueJobs(db, registry, 20, s), 1);
    assert.ok(performance.now() - started < 2_000, "the worker did not wait for the stuck job");
    let job = await jobTagged("stuck");
    assert.equal(job.state, "pending");
    assert.equal(job.attempts, 1);
    assert.equal(job.lastError, "timed out after 200 ms");
    assert.equal(job.lockedBy, null);
    assert.deepEqual(
      runs.map((r) => [r.tag, r.aborted]),
      [["stuck", true]],
      "the job's signal was aborted",
    );

    await db.update(jobs).set({ runAt: clock.now() }).where(eq(jobs.id, job.id));
    assert.equal(await runDueJobs(db, registry, 20, s), 1);
    job = await jobTagged("stuck");
    assert.equal(job.state, "dead");
    assert.equal(job.attempts, 2);
    // A stuck run ending late changes nothing.
    for (const release of held.values()) release();
    await sleep(50);
    assert.equal((await jobTagged("stuck")).state, "dead");
  });

  it("a `run` job past its timeout fails and its writes roll back", async () => {
    await add("test.slowRun", { tag: "slow-run", ms: 600 });
    assert.equal(await runDueJobs(db, registry, 20, settings({ timeoutMs: () => 150 })), 1);
    // Its transaction ends when the run returns: wait for that (and the rollback), then look.
    await until(() => runEnded.has("slow-run"), "the timed-out run to return");
    await sleep(200);
    const job = await jobTagged("slow-run");
    assert.equal(job.state, "pending");
    assert.equal(job.lastError, "timed out after 150 ms");
    const markers = await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.scope, "test.slowRun"));
    assert.deepEqual(markers, [], "the timed-out run's write was rolled back");
  });
});

describe("jobs: lease and heartbeat", () => {
  it("a job running longer than its lease keeps it (heartbeat): no other worker takes it", async () => {
    // The job outlasts its lease twice over; a generous lease keeps a stalled event loop on a
    // loaded machine from looking like a dead worker.
    const s = settings({ leaseSeconds: 2, heartbeatMs: 200 });
    await add("test.slow", { tag: "long", ms: 4_500 });
    const first = runDueJobs(db, registry, 20, s);
    await until(() => runs.length === 1, "the job to start");
    let stolen = 0;
    const start = performance.now();
    while (performance.now() - start < 4_700) {
      stolen += await runDueJobs(db2, registry, 20, s);
      await sleep(100);
    }
    assert.equal(await first, 1);
    assert.equal(stolen, 0, "nobody took a job whose worker is alive");
    const job = await jobTagged("long");
    assert.equal(job.state, "done");
    assert.equal(job.attempts, 1);
    assert.equal(runs.length, 1);
  });
});

// ---- Lanes and groups --------------------------------------------------------------------------

describe("jobs: lanes and per-group limits in one worker", () => {
  it("each lane fills only its own slots, at most perGroup per group (a partner, a kind)", async () => {
    const s = settings({
      lanes: [
        { name: "partners", kinds: ["test.hold"], concurrency: 3, groupBy: sql`${jobs.payload}->>'group'`, perGroup: 2 },
        { name: "default", concurrency: 3, groupBy: sql`${jobs.kind}`, perGroup: 2 },
      ],
    });
    for (let i = 0; i < 4; i++) await add("test.hold", { tag: `a${i}`, group: "A" });
    for (let i = 0; i < 2; i++) await add("test.hold", { tag: `b${i}`, group: "B" });
    for (let i = 0; i < 3; i++) await add("test.hold2", { tag: `k${i}` });
    await add("test.hold3", { tag: "other-kind" });

    const pool = new JobPool(db, registry, s);
    assert.equal(await pool.fill(), 6);
    assert.equal(await pool.fill(), 0, "every lane is full or its groups are at their limit");
    // Jobs due at the same instant have no order among themselves: count per group, not names.
    const started = runs.map((r) => r.tag);
    const inGroup = (prefix: string) => started.filter((t) => t.startsWith(prefix)).length;
    assert.deepEqual([inGroup("a"), inGroup("b"), inGroup("k"), inGroup("other-kind")], [2, 1, 2, 1], started.join(", "));

    // Partner A's slot frees: another A job takes it, still never more than two of A.
    const firstA = started.find((t) => t.startsWith("a"))!;
    held.get(firstA)!();
    await until(async () => (await jobTagged(firstA)).state === "done", `${firstA} to finish`);
    assert.equal(await pool.fill(), 1);
    const next = runs.at(-1)!.tag;
    assert.ok(next.startsWith("a") && !started.includes(next), `${next} took partner A's freed slot`);

    for (const release of held.values()) release();
    await pool.drain();
  });

  it("a fast-check finishes within 2 s while a webhook endpoint never answers", async () => {
    // A partner endpoint that accepts the connection and never answers.
    const sockets = new Set<Socket>();
    let hits = 0;
    const hanging: Server = createServer(() => void (hits += 1));
    hanging.on("connection", (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hook`;
    const now = clock.now();
    const partnerId = newId("partner_test");
    await db.insert(partners).values({
      id: partnerId,
      name: `Hanging ${partnerId}`,
      webhookUrl: url,
      webhookSecret: `whsec_${randomBytes(24).toString("base64")}`,
      createdAt: now,
      updatedAt: now,
    });
    // Ten subscriptions, two events each: twenty deliveries that each hang for the POST's timeout.
    for (let i = 0; i < 10; i++) {
      const customerId = newId("cus");
      const subscriptionId = newId("sub");
      await db.insert(customers).values({ id: customerId, createdAt: now, updatedAt: now });
      await db.insert(subscriptions).values({ id: subscriptionId, partnerId, customerId, createdAt: now, updatedAt: now });
      for (let k = 0; k < 2; k++)
        await db.transaction((tx) => emitEvent(tx, { subscriptionId, eventType: "customer.status.changed", data: {}, now: clock.now() }));
    }
    // Its partner has no webhook URL, so the transfer's own event is undeliverable at once.
    const transferId = (await registeredTransfer(db)).id;
    await db.delete(jobs).where(eq(jobs.kind, "transfers.fastCheck"));

    const loop = startWorkerLoop(async () => db, jobRegistry);
    try {
      await until(() => hits >= 1, "a delivery to reach the hanging endpoint");
      // The fast-check comes due now, behind twenty deliveries that are due earlier.
      const due = performance.now();
      await db.transaction((tx) => enqueue(tx, "transfers.fastCheck", { transferId }, { runAt: clock.now() }));
      const job = await until(async () => {
        const [row] = await db.select().from(jobs).where(eq(jobs.kind, "transfers.fastCheck"));
        return row?.state === "done" && row;
      }, "the fast-check to finish");
      const took = performance.now() - due;
      assert.ok(took < 2_000, `the fast-check took ${Math.round(took)} ms`);
      assert.equal(job.attempts, 1);
      const delivered = await db
        .select()
        .from(events)
        .where(and(eq(events.partnerId, partnerId), eq(events.deliveryState, "delivered")));
      assert.deepEqual(delivered, [], "the deliveries were still hanging");
      // One partner never holds more than its share of the webhook lane.
      const running = await db
        .select()
        .from(jobs)
        .where(and(eq(jobs.kind, "webhooks.deliver"), eq(jobs.state, "running")));
      assert.ok(running.length <= workerSettings().lanes.find((l) => l.name === "webhooks")!.perGroup, `${running.length} deliveries running for one partner`);
    } finally {
      for (const socket of sockets) socket.destroy();
      await loop.stop();
      await new Promise((resolve) => hanging.close(resolve));
    }
  });
});

// ---- A killed worker ----------------------------------------------------------------------------

describe("jobs: a killed worker's jobs rerun within 15 s", () => {
  /** Runs a worker loop on this database until `tag`'s job is done; returns when that happened. */
  async function rerunBy(tag: string): Promise<number> {
    const finished: Record<string, number> = {};
    const completes: JobRegistry = {
      "test.hold": {
        kind: "test.hold",
        schema: payloadSchema,
        perform: async (_db: Db, job: JobRun<Payload>) => {
          runs.push({ kind: "test.hold", tag: job.payload.tag, attempt: job.attempt });
          finished[job.payload.tag] = performance.now();
        },
      },
    };
    const loop = startWorkerLoop(async () => db, completes);
    try {
      return await until(() => finished[tag], `${tag} to run again`);
    } finally {
      await loop.stop();
    }
  }

  it("a claim left by a process that died (no heartbeat) is run again within 15 s", async () => {
    await add("test.hold", { tag: "orphaned" });
    // What a SIGKILLed worker leaves: the job claimed under the configured lease, never renewed.
    const [claimed] = await claim(db, clock.now(), 1, {}, workerSettings().leaseSeconds);
    assert.equal(claimed.state, "running");
    const died = performance.now();
    const reran = await rerunBy("orphaned");
    assert.ok(reran - died < 15_000, `rerun ${Math.round(reran - died)} ms after the worker died`);
    const job = await jobTagged("orphaned");
    assert.equal(job.state, "done");
    assert.equal(job.attempts, 2);
  });

  // A second process needs a database server: PGlite belongs to this one.
  if (process.env.TEST_DB_URL) {
    it("a worker process SIGKILLed mid-job: another worker reruns the job within 15 s", async () => {
      await add("test.hold", { tag: "killed" });
      const child = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "support/hanging-worker.ts")], {
        env: { ...process.env, DATABASE_URL: process.env.TEST_DB_URL, LOG_LEVEL: "silent" },
        stdio: ["ignore", "pipe", "inherit"],
      });
      try {
        await until(async () => (await jobTagged("killed")).state === "running", "the child worker to start the job");
        const claimedBy = (await jobTagged("killed")).lockedBy;
        child.kill("SIGKILL");
        const died = performance.now();
        await new Promise((resolve) => child.once("exit", resolve));
        const reran = await rerunBy("killed");
        assert.ok(reran - died < 15_000, `rerun ${Math.round(reran - died)} ms after the kill`);
        const job = await jobTagged("killed");
        assert.equal(job.state, "done");
        assert.equal(job.attempts, 2);
        assert.notEqual(claimedBy, null);
      } finally {
        if (child.exitCode === null) child.kill("SIGKILL");
      }
    });
  }
});

// ---- Periodic jobs ------------------------------------------------------------------------------

describe("jobs: periodic jobs", () => {
  it("any number of nodes starting schedule one purge job; it purges and schedules its next run", async () => {
    await Promise.all([schedulePeriodicJobs(db, jobRegistry), schedulePeriodicJobs(db2, jobRegistry), schedulePeriodicJobs(db, jobRegistry)]);
    const pending = await db.select().from(jobs).where(eq(jobs.kind, "maintenance.purge"));
    assert.equal(pending.length, 1);
    assert.equal(pending[0].state, "pending");
    assert.equal(pending[0].dedupeKey, periodicKey("maintenance.purge"));

    const now = clock.now();
    await db.insert(idempotencyKeys).values({
      scope: "test.purge",
      key: "old",
      fingerprint: "x",
      state: "done",
      lockedUntil: now,
      expiresAt: addSeconds(now, -1),
      createdAt: addSeconds(now, -86_400),
    });
    await db
      .insert(idempotencyKeys)
      .values({ scope: "test.purge", key: "fresh", fingerprint: "x", state: "done", lockedUntil: now, expiresAt: addSeconds(now, 3600), createdAt: now });
    // Counted failures: one older than every window (a day), one inside them.
    await db.insert(failureEvents).values([
      { id: newId("fe"), scope: "test.purge", occurredAt: addSeconds(now, -86_400) },
      { id: "fe_fresh", scope: "test.purge", occurredAt: now },
    ]);
    // Only the purge is due: start-up work other modules enqueue (list imports) is not this test's.
    await db.delete(jobs).where(ne(jobs.kind, "maintenance.purge"));
    const before = clock.now();
    assert.equal(await runDueJobs(db, jobRegistry), 1);
    const left = await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.scope, "test.purge"));
    assert.deepEqual(
      left.map((k) => k.key),
      ["fresh"],
    );
    await db.delete(idempotencyKeys).where(eq(idempotencyKeys.scope, "test.purge"));
    const failuresLeft = await db.select().from(failureEvents).where(eq(failureEvents.scope, "test.purge"));
    assert.deepEqual(
      failuresLeft.map((f) => f.id),
      ["fe_fresh"],
    );

    const all = await db.select().from(jobs).where(eq(jobs.kind, "maintenance.purge"));
    assert.deepEqual(all.map((j) => j.state).sort(), ["done", "pending"]);
    const next = all.find((j) => j.state === "pending")!;
    assert.equal(next.dedupeKey, periodicKey("maintenance.purge"));
    const inSeconds = (next.runAt.getTime() - before.getTime()) / 1000;
    assert.ok(inSeconds >= 3600 && inSeconds < 3660, `next run in ${inSeconds} s`);

    // Another node starting now adds nothing: the series' next run is already waiting.
    await schedulePeriodicJobs(db2, jobRegistry);
    assert.equal(
      (
        await db
          .select()
          .from(jobs)
          .where(and(eq(jobs.kind, "maintenance.purge"), eq(jobs.state, "pending")))
      ).length,
      1,
    );
    // insertJob with the same key is what the scheduler relies on: a no-op while one waits.
    await insertJob(db, "maintenance.purge", {}, { runAt: clock.now(), dedupeKey: periodicKey("maintenance.purge") });
    assert.equal(
      (
        await db
          .select()
          .from(jobs)
          .where(and(eq(jobs.kind, "maintenance.purge"), eq(jobs.state, "pending")))
      ).length,
      1,
    );
  });
});
