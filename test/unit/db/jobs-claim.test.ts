/**
 * The worker's claim: a wake-up claims every lane in ONE statement (lib/platform/jobs/claim.ts
 * claimLanes), and that statement keeps what a claim per lane gave: each lane looks at its own
 * window (a backlog of one lane due earlier never hides another's jobs), fills only its free slots
 * and at most `perGroup` of a group, and skips rows another worker holds (FOR UPDATE SKIP LOCKED).
 * A claim statement gives every job it claims one token (locked_by), so the tokens count the claims.
 */
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db";
import { jobs } from "@/db/schema";
import { addSeconds, clock } from "@/lib/platform/clock";
import { claimLanes } from "@/lib/platform/jobs/claim";
import type { JobRegistry, JobRun } from "@/lib/platform/jobs/define";
import type { JobKind } from "@/lib/platform/jobs/kinds";
import type { WorkerSettings } from "@/lib/platform/jobs/lanes";
import { JobPool } from "@/lib/platform/jobs/pool";
import { enqueue } from "@/lib/platform/jobs/queue";
import { freshDbPair } from "../../support/db";

let db: Db;
let db2: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, db2, close } = await freshDbPair());
});

after(() => close());

const held = new Map<string, () => void>();

beforeEach(async () => {
  // The PostgreSQL database is shared by every file of a run: start each case from no jobs.
  await db.delete(jobs);
  held.clear();
});

type Payload = { tag: string; group?: string };
const payloadSchema = z.strictObject({ tag: z.string(), group: z.string().optional() });

/** Runs until the test releases it. */
const hold = (kind: string) => ({
  kind,
  schema: payloadSchema,
  perform: (_db: Db, job: JobRun<Payload>) => new Promise<void>((resolve) => held.set(job.payload.tag, resolve)),
});

const registry: JobRegistry = { "test.a": hold("test.a"), "test.b": hold("test.b"), "test.c": hold("test.c") };

/** Three lanes: two of one kind each (the first grouped by the payload's group), and the rest. */
function settings(concurrency: { a: number; b: number; rest: number }, perGroupA = concurrency.a): WorkerSettings {
  return {
    lanes: [
      { name: "a", kinds: ["test.a"], concurrency: concurrency.a, groupBy: sql`${jobs.payload}->>'group'`, perGroup: perGroupA },
      { name: "b", kinds: ["test.b"], concurrency: concurrency.b, groupBy: sql`${jobs.kind}`, perGroup: concurrency.b },
      { name: "rest", concurrency: concurrency.rest, groupBy: sql`${jobs.kind}`, perGroup: concurrency.rest },
    ],
    leaseSeconds: 30,
    heartbeatMs: 10_000,
    timeoutMs: () => 30_000,
  };
}

async function add(kind: string, payload: Payload, runAt = clock.now()) {
  await enqueue(db, kind as JobKind, payload as never, { runAt });
}

async function running() {
  return db.select().from(jobs).where(eq(jobs.state, "running"));
}

async function stop(pool: JobPool) {
  for (const release of held.values()) release();
  await pool.drain();
}

describe("jobs: one claim statement for every lane", () => {
  it("a wake-up claims in every lane with one statement (one claim token)", async () => {
    await add("test.a", { tag: "a1", group: "A" });
    await add("test.b", { tag: "b1" });
    await add("test.c", { tag: "c1" });
    const pool = new JobPool(db, registry, settings({ a: 2, b: 2, rest: 2 }));
    assert.equal(await pool.fill(), 3);
    const rows = await running();
    assert.deepEqual(rows.map((j) => j.kind).sort(), ["test.a", "test.b", "test.c"]);
    assert.equal(new Set(rows.map((j) => j.lockedBy)).size, 1, "the three lanes were claimed by one statement");
    await stop(pool);
  });

  it("is fair across lanes: a lane's backlog due earlier does not hide another lane's jobs", async () => {
    const earlier = addSeconds(clock.now(), -3600);
    for (let i = 0; i < 40; i++) await add("test.a", { tag: `a${i}`, group: `G${i}` }, earlier);
    await add("test.b", { tag: "b-late" });
    await add("test.c", { tag: "c-late" });
    const pool = new JobPool(db, registry, settings({ a: 2, b: 1, rest: 1 }));
    assert.equal(await pool.fill(), 4);
    const kinds = (await running()).map((j) => j.kind).sort();
    assert.deepEqual(kinds, ["test.a", "test.a", "test.b", "test.c"]);
    await stop(pool);
  });

  it("respects each lane's free slots and per-group limit, counting the jobs already running", async () => {
    for (let i = 0; i < 5; i++) await add("test.a", { tag: `a${i}`, group: "A" });
    for (let i = 0; i < 2; i++) await add("test.a", { tag: `x${i}`, group: "X" });
    for (let i = 0; i < 4; i++) await add("test.b", { tag: `b${i}` });
    const pool = new JobPool(db, registry, settings({ a: 3, b: 2, rest: 1 }, 2));
    assert.equal(await pool.fill(), 5);
    const count = (rows: (typeof jobs.$inferSelect)[], pred: (p: Payload) => boolean) => rows.filter((j) => pred(j.payload as Payload)).length;
    let rows = await running();
    assert.equal(
      count(rows, (p) => p.group === "A"),
      2,
      "at most perGroup of group A",
    );
    assert.equal(
      count(rows, (p) => p.group === "X"),
      1,
      "the lane's third slot went to another group",
    );
    assert.equal(
      count(rows, (p) => p.tag.startsWith("b")),
      2,
      "lane b: its two slots",
    );
    assert.equal(await pool.fill(), 0, "every lane is full");

    // One of A ends: the lane's freed slot is filled again, still never more than two of a group.
    const a = rows.find((j) => (j.payload as Payload).group === "A")!;
    held.get((a.payload as Payload).tag)!();
    for (let i = 0; i < 500 && pool.size > 4; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(await pool.fill(), 1);
    rows = await running();
    assert.ok(count(rows, (p) => p.group === "A") <= 2 && count(rows, (p) => p.group === "X") <= 2, "at most perGroup of each group");
    assert.equal(rows.filter((j) => (j.payload as Payload).group !== undefined).length, 3, "lane a: its three slots");
    await stop(pool);
  });

  it("two workers claiming at once never take one job twice", async () => {
    for (let i = 0; i < 30; i++) await add(["test.a", "test.b", "test.c"][i % 3], { tag: `j${i}`, group: `G${i}` });
    const lanes = settings({ a: 10, b: 10, rest: 10 }).lanes;
    const claimOnce = (d: Db) =>
      claimLanes(
        d,
        clock.now(),
        lanes.map((l) => ({ kinds: l.kinds, notKinds: l.kinds ? undefined : ["test.a", "test.b"], groupBy: l.groupBy, perGroup: l.perGroup, limit: 4 })),
        [],
        30,
      );
    // Rounds of four claims at once until a round finds nothing. A claim that meets a window
    // another one holds skips it (SKIP LOCKED) and may come back short or empty: the worker claims
    // again when next woken. So one round need not take every job, but no job is ever taken twice
    // and the rounds together take them all.
    const ids: string[] = [];
    for (let round = 0; round < 30; round++) {
      const claims = await Promise.all([claimOnce(db), claimOnce(db2), claimOnce(db), claimOnce(db2)]);
      const taken = claims.flatMap((c) => c.flatMap((lane) => lane.jobs.map((j) => j.id)));
      if (taken.length === 0) break;
      ids.push(...taken);
    }
    assert.equal(new Set(ids).size, ids.length, "none twice");
    assert.equal(ids.length, 30, "every job claimed");
  });
});

// PGlite has one connection: no other transaction can hold a row while a claim runs there.
if (process.env.TEST_DB_URL) {
  describe("jobs: the claim skips rows another worker holds (PostgreSQL)", () => {
    it("a job locked by another transaction is skipped, not waited for; the others are claimed", async () => {
      await add("test.a", { tag: "locked", group: "A" });
      await add("test.a", { tag: "free", group: "B" });
      await add("test.b", { tag: "b" });
      const [locked] = await db
        .select()
        .from(jobs)
        .where(sql`${jobs.payload}->>'tag' = 'locked'`);
      const lanes = settings({ a: 2, b: 2, rest: 2 }).lanes;
      const claimed = await db2.transaction(async (tx) => {
        await tx.select().from(jobs).where(eq(jobs.id, locked.id)).for("update");
        // While the other transaction holds the row. Were it waited for, this would never return:
        // the holder commits only after it.
        const claim = claimLanes(
          db,
          clock.now(),
          lanes.map((l) => ({ kinds: l.kinds, notKinds: l.kinds ? undefined : ["test.a", "test.b"], groupBy: l.groupBy, perGroup: l.perGroup, limit: 2 })),
          [],
          30,
        );
        let timer: ReturnType<typeof setTimeout> | undefined;
        const stuck = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("the claim waited for the locked row")), 15_000)));
        return Promise.race([claim, stuck]).finally(() => clearTimeout(timer));
      });
      const tags = claimed.flatMap((lane) => lane.jobs.map((j) => (j.payload as Payload).tag)).sort();
      assert.deepEqual(tags, ["b", "free"]);
      const [after] = await db
        .select()
        .from(jobs)
        .where(inArray(jobs.id, [locked.id]));
      assert.equal(after.state, "pending", "the locked job is left for its holder");
    });
  });

  describe("jobs: the enqueue's NOTIFY, sent by the insert's own statement (PostgreSQL)", () => {
    it("a job due now wakes a listener once its transaction commits; a rolled-back one does not", async () => {
      const { default: postgres } = await import("postgres");
      const listener = postgres(process.env.TEST_DB_URL!, { max: 1, onnotice: () => {} });
      let heard = 0;
      await listener.listen("remit_jobs", () => void (heard += 1));
      try {
        await db
          .transaction(async (tx) => {
            await enqueue(tx, "test.a" as JobKind, { tag: "rolled-back" } as never, { runAt: clock.now() });
            throw new Error("roll back");
          })
          .catch(() => {});
        await db.transaction((tx) => enqueue(tx, "test.a" as JobKind, { tag: "committed" } as never, { runAt: clock.now() }));
        for (let i = 0; i < 200 && heard === 0; i++) await new Promise((r) => setTimeout(r, 10));
        // A notification of the rolled-back transaction would have arrived before the committed one's.
        assert.equal(heard, 1);
        const written = await db.select({ tag: sql<string>`${jobs.payload}->>'tag'` }).from(jobs);
        assert.deepEqual(written, [{ tag: "committed" }]);
      } finally {
        await listener.end({ timeout: 1 });
      }
    });
  });
}
