/**
 * The worker's writes per batch, not per job: the "done" of `perform` jobs ending in the same turn
 * in one statement (lib/platform/jobs/claim.ts DoneBatch, finishDone), and the heartbeat of every
 * held claim in one statement (renewLeases). Each still writes only a claim it holds: a job taken
 * over by another worker (a new token) keeps the new holder's row.
 */
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { eq, inArray } from "drizzle-orm";
import type { Db } from "@/db";
import { jobs } from "@/db/schema";
import { addSeconds, clock } from "@/lib/platform/clock";
import { claim, DoneBatch, finishDone, renewLeases, type ClaimedJob } from "@/lib/platform/jobs/claim";
import type { JobKind } from "@/lib/platform/jobs/kinds";
import { enqueue } from "@/lib/platform/jobs/queue";
import { freshDb } from "../../support/db";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, close } = await freshDb());
});

after(() => close());

beforeEach(async () => {
  // The PostgreSQL database is shared by every file of a run: start each case from no jobs.
  await db.delete(jobs);
});

/** `n` jobs of a kind of this file's own, claimed by one worker. */
async function claimed(n: number): Promise<ClaimedJob[]> {
  for (let i = 0; i < n; i++) await enqueue(db, "test.batch" as JobKind, { i } as never, { runAt: clock.now() });
  const got = await claim(db, clock.now(), n, { kinds: ["test.batch"] }, 30);
  assert.equal(got.length, n);
  return got;
}

/** What another worker's takeover does to the row: a new token and lease. */
async function takeOver(job: ClaimedJob): Promise<void> {
  await db
    .update(jobs)
    .set({ lockedBy: "another-worker", lockedUntil: addSeconds(clock.now(), 60) })
    .where(eq(jobs.id, job.id));
}

const rowsOf = (list: ClaimedJob[]) =>
  db
    .select()
    .from(jobs)
    .where(
      inArray(
        jobs.id,
        list.map((j) => j.id),
      ),
    );

describe("jobs: the worker's writes per batch", () => {
  it("the jobs ending in the same turn are recorded done in one statement; a claim lost meanwhile is left to its new holder", async () => {
    const [a, b, c] = await claimed(3);
    await takeOver(c);
    const batch = new DoneBatch(db);
    // One statement: its one clock reading is every row's finished_at.
    const outcomes = await Promise.all([batch.done(a), batch.done(b), batch.done(c)]);
    assert.deepEqual(outcomes, [true, true, false]);
    const rows = new Map((await rowsOf([a, b, c])).map((r) => [r.id, r]));
    for (const job of [a, b]) {
      const row = rows.get(job.id)!;
      assert.equal(row.state, "done");
      assert.equal(row.lockedBy, null);
      assert.equal(row.lockedUntil, null);
    }
    assert.equal(rows.get(a.id)!.finishedAt!.getTime(), rows.get(b.id)!.finishedAt!.getTime());
    const lost = rows.get(c.id)!;
    assert.equal(lost.state, "running");
    assert.equal(lost.lockedBy, "another-worker");
    assert.equal(lost.finishedAt, null);
  });

  it("a job ending while a batch is being written goes in the next one", async () => {
    const [a, b] = await claimed(2);
    const batch = new DoneBatch(db);
    const first = batch.done(a);
    // After the first statement was sent: the second waits for it, then is written.
    await new Promise((r) => setImmediate(r));
    const second = batch.done(b);
    assert.deepEqual(await Promise.all([first, second]), [true, true]);
    const states = (await rowsOf([a, b])).map((r) => r.state);
    assert.deepEqual(states, ["done", "done"]);
  });

  it("finishDone with nothing to record sends nothing and answers no id", async () => {
    assert.equal((await finishDone(db, [], clock.now())).size, 0);
  });

  it("the heartbeat renews every held lease in one statement and answers the ids it renewed (a lost claim is not among them)", async () => {
    const [a, b, c] = await claimed(3);
    await takeOver(c);
    const until = addSeconds(clock.now(), 120);
    const renewed = await renewLeases(db, [a, b, c], until);
    assert.deepEqual([...renewed].sort(), [a.id, b.id].sort());
    const rows = new Map((await rowsOf([a, b, c])).map((r) => [r.id, r]));
    assert.equal(rows.get(a.id)!.lockedUntil!.getTime(), until.getTime());
    assert.equal(rows.get(b.id)!.lockedUntil!.getTime(), until.getTime());
    assert.notEqual(rows.get(c.id)!.lockedUntil!.getTime(), until.getTime());
    assert.equal(rows.get(c.id)!.lockedBy, "another-worker");
  });
});
