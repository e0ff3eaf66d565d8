import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, beforeEach, describe, it } from "node:test";
import { asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db";
import { idempotencyKeys, jobs } from "@/db/schema";
import { addSeconds, clock } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";
import { defaultBackoff, RetryLater, type JobDefinition, type JobRegistry, type JobRun } from "@/lib/platform/jobs/define";
import type { JobKind } from "@/lib/platform/jobs/kinds";
import { enqueue, nudgeJobStatement, type EnqueueOptions } from "@/lib/platform/jobs/queue";
import type { WorkerSettings } from "@/lib/platform/jobs/lanes";
import { JobPool } from "@/lib/platform/jobs/pool";
import { runDueJobs } from "@/lib/platform/jobs/worker";
import { freshDbPair } from "../../support/db";

let db: Db;
let close: () => Promise<void>;
/** A second worker's database: its own connection pool on PostgreSQL (PGlite has one connection). */
let db2: Db;

// ---- Test-only job kinds -------------------------------------------------------------------
// The worker runs the registry it is given: these tests hand it two kinds of their own instead of
// adding test hooks to production code. Each run is recorded, and its behaviour is chosen per
// payload tag.
type Payload = { tag: string };
type Behaviour = (job: JobRun<Payload>, tx?: Parameters<NonNullable<JobDefinition<"maintenance.purge">["run"]>>[0]) => Promise<void>;
const calls: { kind: string; tag: string; attempt: number; jobId: string }[] = [];
const behaviours = new Map<string, Behaviour>();
const deadCalls: { tag: string; error: string }[] = [];

const testPerform = {
  kind: "test.perform",
  schema: z.strictObject({ tag: z.string() }),
  perform: async (_db: Db, job: JobRun<Payload>) => {
    calls.push({ kind: "test.perform", tag: job.payload.tag, attempt: job.attempt, jobId: job.jobId });
    await behaviours.get(job.payload.tag)?.(job);
  },
  onDead: async (_db: Db, job: JobRun<Payload>, error: string) => {
    deadCalls.push({ tag: job.payload.tag, error });
  },
};

/** A `run` kind: writes a marker row in the job's transaction, then does what its tag says. */
const testRun = {
  kind: "test.run",
  schema: z.strictObject({ tag: z.string() }),
  run: async (tx: any, job: JobRun<Payload>) => {
    calls.push({ kind: "test.run", tag: job.payload.tag, attempt: job.attempt, jobId: job.jobId });
    await tx.insert(idempotencyKeys).values({
      scope: "test.run",
      key: `${job.payload.tag}:${job.attempt}`,
      fingerprint: "marker",
      state: "done",
      lockedUntil: job.now,
      expiresAt: addSeconds(job.now, 3600),
      createdAt: job.now,
    });
    await behaviours.get(job.payload.tag)?.(job, tx);
  },
};

const registry: JobRegistry = { "test.perform": testPerform, "test.run": testRun };

before(async () => {
  ({ db, db2, close } = await freshDbPair());
});

after(() => close());

beforeEach(async () => {
  // The PostgreSQL database is shared by every file of a run: start each case from no jobs.
  await db.delete(jobs);
  await db.delete(idempotencyKeys).where(eq(idempotencyKeys.scope, "test.run"));
  calls.length = 0;
  deadCalls.length = 0;
  behaviours.clear();
});

// ---- Helpers ---------------------------------------------------------------------------------

async function add(tag: string, opts: Partial<EnqueueOptions> & { kind?: string; payload?: unknown; executor?: Parameters<typeof enqueue>[0] } = {}) {
  await enqueue(opts.executor ?? db, (opts.kind ?? "test.perform") as JobKind, (opts.payload ?? { tag }) as never, {
    runAt: opts.runAt ?? clock.now(),
    dedupeKey: opts.dedupeKey,
    maxAttempts: opts.maxAttempts,
  });
}

async function jobsTagged(tag: string) {
  return db
    .select()
    .from(jobs)
    .where(sql`${jobs.payload}->>'tag' = ${tag}`)
    .orderBy(asc(jobs.createdAt));
}

async function jobTagged(tag: string) {
  const rows = await jobsTagged(tag);
  assert.equal(rows.length, 1, `expected one job tagged ${tag}, found ${rows.length}`);
  return rows[0];
}

const tagsCalled = () => calls.map((c) => c.tag);

/** Asserts `date` is `seconds` after a moment between `from` and `to` (the call's start and end). */
function assertAfter(date: Date | null, seconds: number, from: Date, to: Date) {
  assert.ok(date, "expected a date");
  const lo = from.getTime() + seconds * 1000;
  const hi = to.getTime() + seconds * 1000;
  assert.ok(date.getTime() >= lo && date.getTime() <= hi, `${date.toISOString()} not ${seconds}s after [${from.toISOString()}, ${to.toISOString()}]`);
}

async function runTimed(d: Db = db) {
  const from = clock.now();
  const ran = await runDueJobs(d, registry);
  return { ran, from, to: clock.now() };
}

function failWith(message: string): Behaviour {
  return async () => {
    throw new Error(message);
  };
}

const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(check(), `timed out waiting for ${what}`);
};

// ---- Tests -----------------------------------------------------------------------------------

describe("jobs: enqueue", () => {
  it("a job enqueued in a transaction that rolls back does not exist (nor runs)", async () => {
    await assert.rejects(
      db.transaction(async (tx) => {
        await add("rolled-back", { executor: tx });
        assert.equal((await tx.select().from(jobs)).length, 1, "visible inside its transaction");
        throw new Error("state change failed");
      }),
      /state change failed/,
    );
    assert.deepEqual(await jobsTagged("rolled-back"), []);
    assert.equal(await runDueJobs(db, registry), 0);
    assert.deepEqual(calls, []);
  });

  it("a job enqueued in a committed transaction exists, pending, with its options", async () => {
    const before = clock.now();
    const runAt = addSeconds(before, 600);
    await db.transaction(async (tx) => add("committed", { executor: tx, runAt, maxAttempts: 7, dedupeKey: `k:${randomUUID()}` }));
    const job = await jobTagged("committed");
    assert.equal(job.kind, "test.perform");
    assert.equal(job.state, "pending");
    assert.equal(job.attempts, 0);
    assert.equal(job.maxAttempts, 7);
    assert.equal(job.runAt.toISOString(), runAt.toISOString());
    assert.equal(job.lockedUntil, null);
    // createdAt is when it was enqueued, not when it is due.
    assert.ok(job.createdAt.getTime() >= before.getTime() && job.createdAt.getTime() <= clock.nowMs(), `createdAt ${job.createdAt.toISOString()}`);
    assert.equal((await db.select().from(jobs).where(eq(jobs.id, job.id)))[0].maxAttempts, 7);
  });

  it("maxAttempts defaults to 25", async () => {
    await add("defaults");
    assert.equal((await jobTagged("defaults")).maxAttempts, 25);
  });

  it("dedupeKey: a second enqueue while pending or running is a no-op; allowed again once done", async () => {
    const key = `dedupe:${randomUUID()}`;
    await add("first", { dedupeKey: key });
    await add("second", { dedupeKey: key });
    await db.transaction(async (tx) => add("third", { executor: tx, dedupeKey: key }));
    let all = await db.select().from(jobs).where(eq(jobs.dedupeKey, key));
    assert.equal(all.length, 1);
    assert.deepEqual(all[0].payload, { tag: "first" });

    // While it runs, still one.
    let enqueuedWhileRunning = false;
    behaviours.set("first", async () => {
      await add("while-running", { dedupeKey: key });
      enqueuedWhileRunning = true;
    });
    assert.equal(await runDueJobs(db, registry), 1);
    assert.ok(enqueuedWhileRunning);
    all = await db.select().from(jobs).where(eq(jobs.dedupeKey, key));
    assert.equal(all.length, 1);
    assert.equal(all[0].state, "done");

    // Done: the key is free again.
    await add("after-done", { dedupeKey: key });
    all = await db.select().from(jobs).where(eq(jobs.dedupeKey, key));
    assert.equal(all.length, 2);
    assert.deepEqual(
      all.filter((j) => j.state === "pending").map((j) => j.payload),
      [{ tag: "after-done" }],
    );
  });

  it("dedupeKey: a dead job frees its key too", async () => {
    const key = `dedupe:${randomUUID()}`;
    await add("dies", { dedupeKey: key, maxAttempts: 1 });
    behaviours.set("dies", failWith("nope"));
    await runDueJobs(db, registry);
    assert.equal((await jobTagged("dies")).state, "dead");
    await add("replacement", { dedupeKey: key });
    assert.equal((await jobTagged("replacement")).state, "pending");
  });
});

describe("jobs: running due jobs", () => {
  it("runs due jobs, not future ones, until the clock reaches them", async () => {
    const now = clock.now();
    await add("due-now", { runAt: now });
    await add("due-past", { runAt: addSeconds(now, -30) });
    await add("future", { runAt: addSeconds(now, 60) });

    assert.equal(await runDueJobs(db, registry), 2);
    assert.deepEqual(tagsCalled(), ["due-past", "due-now"], "due jobs run in runAt order");
    assert.equal((await jobTagged("due-now")).state, "done");
    assert.ok((await jobTagged("due-now")).finishedAt);
    assert.equal((await jobTagged("due-now")).lockedUntil, null);
    assert.equal((await jobTagged("future")).state, "pending");

    assert.equal(await runDueJobs(db, registry), 0, "a done job never runs again");
    clock.advance(50_000);
    assert.equal(await runDueJobs(db, registry), 0, "not due yet");
    clock.advance(11_000);
    assert.equal(await runDueJobs(db, registry), 1);
    assert.deepEqual(tagsCalled(), ["due-past", "due-now", "future"]);
    const future = await jobTagged("future");
    assert.equal(future.state, "done");
    assert.equal(future.attempts, 1);
  });

  it("runs at most `limit` jobs per call", async () => {
    for (let i = 0; i < 5; i++) await add(`limited-${i}`);
    assert.equal(await runDueJobs(db, registry, 2), 2);
    assert.equal(await runDueJobs(db, registry, 2), 2);
    assert.equal(await runDueJobs(db, registry, 2), 1);
    assert.equal(await runDueJobs(db, registry, 2), 0);
    assert.equal(new Set(tagsCalled()).size, 5);
  });

  it("a failing job is retried with backoff, then goes dead after maxAttempts", async () => {
    await add("flaky", { maxAttempts: 3 });
    behaviours.set("flaky", failWith("endpoint exploded"));

    // Attempt 1 fails: pending again, 5 s later.
    let r = await runTimed();
    assert.equal(r.ran, 1);
    let job = await jobTagged("flaky");
    assert.equal(job.state, "pending");
    assert.equal(job.attempts, 1);
    assert.equal(job.lastError, "endpoint exploded");
    assert.equal(job.lockedUntil, null);
    assertAfter(job.runAt, defaultBackoff(1), r.from, r.to);
    assert.equal(defaultBackoff(1), 5);

    assert.equal(await runDueJobs(db, registry), 0, "not before its backoff");
    clock.advance(4_000);
    assert.equal(await runDueJobs(db, registry), 0, "not before its backoff");
    clock.advance(1_100);

    // Attempt 2 fails: 10 s later.
    r = await runTimed();
    assert.equal(r.ran, 1);
    job = await jobTagged("flaky");
    assert.equal(job.state, "pending");
    assert.equal(job.attempts, 2);
    assertAfter(job.runAt, defaultBackoff(2), r.from, r.to);
    assert.equal(defaultBackoff(2), 10);

    clock.advance(10_100);
    // Attempt 3 (the last) fails: dead.
    behaviours.set("flaky", failWith("still broken"));
    r = await runTimed();
    assert.equal(r.ran, 1);
    job = await jobTagged("flaky");
    assert.equal(job.state, "dead");
    assert.equal(job.attempts, 3);
    assert.equal(job.lastError, "still broken");
    assert.ok(job.finishedAt);
    assert.equal(job.lockedUntil, null);
    assert.deepEqual(
      calls.map((c) => c.attempt),
      [1, 2, 3],
      "each run sees its attempt number",
    );
    assert.deepEqual(deadCalls, [{ tag: "flaky", error: "still broken" }], "onDead runs once when the job gives up");

    clock.advance(3_600_000);
    assert.equal(await runDueJobs(db, registry), 0, "a dead job never runs again");
    assert.equal(calls.length, 3);
  });

  it("defaultBackoff doubles from 5 s and caps at an hour", () => {
    assert.deepEqual([1, 2, 3, 4, 5].map(defaultBackoff), [5, 10, 20, 40, 80]);
    assert.equal(defaultBackoff(30), 3600);
  });

  it("RetryLater reschedules without counting an attempt, however often", async () => {
    await add("waiting", { maxAttempts: 1 });
    behaviours.set("waiting", async () => {
      throw new RetryLater(30, "waiting its turn");
    });
    for (let i = 0; i < 3; i++) {
      const r = await runTimed();
      assert.equal(r.ran, 1);
      const job = await jobTagged("waiting");
      assert.equal(job.state, "pending", "never dead, although maxAttempts is 1");
      assert.equal(job.attempts, 0);
      assert.equal(job.lastError, null);
      assertAfter(job.runAt, 30, r.from, r.to);
      assert.equal(await runDueJobs(db, registry), 0);
      clock.advance(30_100);
    }
    behaviours.delete("waiting");
    assert.equal(await runDueJobs(db, registry), 1);
    const job = await jobTagged("waiting");
    assert.equal(job.state, "done");
    assert.equal(job.attempts, 1);
    assert.deepEqual(
      calls.map((c) => c.attempt),
      [1, 1, 1, 1],
    );
  });

  it("RetryLater after a nudge while the job ran: due again at once, the nudge is not lost", async () => {
    await add("nudged", { dedupeKey: "test.perform:nudged" });
    behaviours.set("nudged", async () => {
      // What a delivery meets: the earlier event settles and nudges this one as it decides to wait.
      clock.advance(5);
      await nudgeJobStatement(db, "test.perform:nudged", clock.now());
      throw new RetryLater(60, "an earlier event is still pending");
    });
    assert.equal(await runDueJobs(db, registry), 1);
    const job = await jobTagged("nudged");
    assert.equal(job.state, "pending");
    assert.equal(job.attempts, 0);
    assert.ok(job.runAt.getTime() <= clock.now().getTime(), `due now, not in 60 s: ${job.runAt.toISOString()}`);
    behaviours.delete("nudged");
    assert.equal(await runDueJobs(db, registry), 1);
    assert.equal((await jobTagged("nudged")).state, "done");
  });

  it("an invalid payload is dead at once, without running", async () => {
    await add("bad", { payload: { tag: "bad", extra: true } });
    await add("bad-type", { payload: { tag: 42 } });
    assert.equal(await runDueJobs(db, registry), 2);
    assert.deepEqual(calls, []);
    const rows = await db.select().from(jobs).where(eq(jobs.kind, "test.perform"));
    assert.equal(rows.length, 2);
    for (const job of rows) {
      assert.equal(job.state, "dead");
      assert.equal(job.lastError, "invalid payload");
      assert.ok(job.finishedAt);
    }
    assert.deepEqual(deadCalls, [], "onDead is for exhausted retries, not rejected payloads");
    clock.advance(86_400_000);
    assert.equal(await runDueJobs(db, registry), 0);
  });

  it("an unknown kind is dead at once", async () => {
    await add("ghost", { kind: "test.no-such-kind" });
    assert.equal(await runDueJobs(db, registry), 1);
    const job = await jobTagged("ghost");
    assert.equal(job.state, "dead");
    assert.match(job.lastError ?? "", /unknown job kind test\.no-such-kind/);
  });
});

describe("jobs: `run` jobs are atomic", () => {
  const markers = async (tag: string) =>
    (await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.scope, "test.run"))).filter((r) => r.key.startsWith(`${tag}:`));

  it("a successful run commits its writes and its completion together", async () => {
    await add("run-ok", { kind: "test.run" });
    assert.equal(await runDueJobs(db, registry), 1);
    assert.equal((await jobTagged("run-ok")).state, "done");
    assert.deepEqual(
      (await markers("run-ok")).map((m) => m.key),
      ["run-ok:1"],
    );
  });

  it("a run that throws leaves no writes, and the job is retried; the retry's writes commit", async () => {
    await add("run-fails", { kind: "test.run", maxAttempts: 2 });
    behaviours.set("run-fails", failWith("half way"));
    assert.equal(await runDueJobs(db, registry), 1);
    let job = await jobTagged("run-fails");
    assert.equal(job.state, "pending");
    assert.equal(job.attempts, 1);
    assert.equal(job.lastError, "half way");
    assert.deepEqual(await markers("run-fails"), [], "the failed run's write was rolled back");

    behaviours.delete("run-fails");
    clock.advance(5_100);
    assert.equal(await runDueJobs(db, registry), 1);
    job = await jobTagged("run-fails");
    assert.equal(job.state, "done");
    assert.deepEqual(
      (await markers("run-fails")).map((m) => m.key),
      ["run-fails:2"],
    );
  });

  it("a run whose lease changed under it (another worker took over) rolls its writes back", async () => {
    await add("run-stale", { kind: "test.run" });
    behaviours.set("run-stale", async (job, tx) => {
      // What a takeover does to the row: a new lease under another claim's token.
      await tx!
        .update(jobs)
        .set({ lockedUntil: addSeconds(job.now, 999), lockedBy: "another-worker" })
        .where(eq(jobs.id, job.jobId));
    });
    assert.equal(await runDueJobs(db, registry), 1);
    assert.deepEqual(await markers("run-stale"), [], "no writes from a worker that lost the job");
    assert.notEqual((await jobTagged("run-stale")).state, "done");
  });
});

describe("jobs: several workers", () => {
  it("two concurrent workers never run one job twice", async () => {
    const N = 40;
    for (let i = 0; i < N; i++) await add(`shared-${i}`);
    for (let i = 0; i < N; i++) behaviours.set(`shared-${i}`, () => new Promise((r) => setTimeout(r, 2)));
    const worker = async (d: Db) => {
      let ran = 0;
      for (let k = await runDueJobs(d, registry, 3); k > 0; k = await runDueJobs(d, registry, 3)) ran += k;
      return ran;
    };
    const [a, b] = await Promise.all([worker(db), worker(db2)]);
    assert.equal(a + b, N, `claimed ${a} + ${b}`);
    assert.ok(a > 0 && b > 0, `both workers took part (${a}, ${b})`);
    const tags = tagsCalled();
    assert.equal(tags.length, N, "each job ran once");
    assert.equal(new Set(tags).size, N);
    const rows = await db.select().from(jobs);
    assert.ok(rows.every((j) => j.state === "done" && j.attempts === 1));
  });

  it("many concurrent workers on one due job: it runs once", async () => {
    await add("contended");
    behaviours.set("contended", () => new Promise((r) => setTimeout(r, 20)));
    const counts = await Promise.all(Array.from({ length: 6 }, (_, i) => runDueJobs(i % 2 ? db2 : db, registry)));
    assert.equal(
      counts.reduce((s, n) => s + n, 0),
      1,
    );
    assert.deepEqual(tagsCalled(), ["contended"]);
  });

  it("a job whose worker died (lease expired while running) is picked up again; the stale worker cannot undo the outcome", async () => {
    await add("orphan", { maxAttempts: 5 });
    let release!: (fail: boolean) => void;
    const gate = new Promise<boolean>((r) => (release = r));
    behaviours.set("orphan", async (job) => {
      if (job.attempt === 1 && (await gate)) throw new Error("stale worker failed late");
    });

    // Worker 1 claims the job and hangs in it.
    const stale = runDueJobs(db, registry);
    await until(() => calls.length === 1, "worker 1 to start the job");
    let job = await jobTagged("orphan");
    assert.equal(job.state, "running");
    assert.ok(job.lockedUntil && job.lockedUntil.getTime() > clock.nowMs());

    // While its lease holds, nobody else takes it (the heartbeat is real time: not yet due).
    const lease = config().JOB_LEASE_SECONDS * 1000;
    assert.equal(await runDueJobs(db2, registry), 0);
    clock.advance(lease / 2);
    assert.equal(await runDueJobs(db2, registry), 0);

    // Past the lease, worker 2 takes it over and completes it.
    clock.advance(lease / 2 + 1_000);
    assert.equal(await runDueJobs(db2, registry), 1);
    assert.deepEqual(
      calls.map((c) => c.attempt),
      [1, 2],
    );
    job = await jobTagged("orphan");
    assert.equal(job.state, "done");
    assert.equal(job.attempts, 2);

    // Worker 1 wakes up and fails: the job stays done and is not scheduled again.
    release(true);
    assert.equal(await stale, 1);
    job = await jobTagged("orphan");
    assert.equal(job.state, "done");
    assert.equal(job.lastError, null);
    clock.advance(3_600_000);
    assert.equal(await runDueJobs(db, registry), 0);
    assert.equal(calls.length, 2);
  });

  it("a running job with an expired lease left by a crashed process is run again", async () => {
    await add("crashed");
    const job = await jobTagged("crashed");
    // What a process that claimed the job and died leaves behind.
    await db
      .update(jobs)
      .set({ state: "running", attempts: 1, lockedUntil: addSeconds(clock.now(), 120) })
      .where(eq(jobs.id, job.id));
    assert.equal(await runDueJobs(db, registry), 0);
    clock.advance(120_000);
    assert.equal(await runDueJobs(db, registry), 1);
    const after = await jobTagged("crashed");
    assert.equal(after.state, "done");
    assert.equal(after.attempts, 2);
    assert.deepEqual(
      calls.map((c) => c.attempt),
      [2],
    );
  });
});

describe("jobs: the pool claims again after a job ends only where it left due jobs", () => {
  const settings = (concurrency: number): WorkerSettings => ({
    lanes: [{ name: "test", kinds: ["test.perform"], concurrency, groupBy: sql`${jobs.kind}`, perGroup: concurrency }],
    leaseSeconds: 30,
    heartbeatMs: 10_000,
    timeoutMs: () => 5_000,
  });

  it("a lane whose slots were full claims the jobs it left behind as each job ends, without a wake-up or a poll", async () => {
    for (const tag of ["a", "b", "c"]) await add(tag);
    const refills: Promise<number>[] = [];
    const pool: JobPool = new JobPool(db, registry, settings(1), () => refills.push(pool.refill()));
    assert.equal(await pool.fill(), 1);
    await until(() => calls.length === 3, "the jobs left behind to run");
    await pool.drain();
    await Promise.all(refills);
    assert.deepEqual(tagsCalled().sort(), ["a", "b", "c"]);
  });

  it("a lane whose claim took every due job does not claim when a job ends: a job added meanwhile waits for a wake-up (fill)", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    behaviours.set("first", () => held);
    await add("first");
    const refills: Promise<number>[] = [];
    const pool: JobPool = new JobPool(db, registry, settings(2), () => refills.push(pool.refill()));
    assert.equal(await pool.fill(), 1);
    await add("later");
    release();
    await pool.drain();
    assert.deepEqual(await Promise.all(refills), [0]);
    assert.deepEqual(tagsCalled(), ["first"]);
    assert.equal(await pool.fill(), 1);
    await pool.drain();
    assert.deepEqual(tagsCalled(), ["first", "later"]);
  });
});
