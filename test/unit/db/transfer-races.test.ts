/**
 * Transfer timers run by several workers against one database (PGlite here; PostgreSQL too when
 * TEST_DB_URL is set, the second worker with its own connection pool): a transition is applied
 * once, whatever the number of jobs that ask for it and however they interleave. Each transfer gets
 * two timer jobs under different dedupe keys (as a re-enqueue after a restart or a sweep would
 * leave), and two workers run them at the same time.
 */
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { events, fundingSessions, jobs, subscriptions, transfers, transferStateHistory } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { enqueue } from "@/lib/platform/jobs/queue";
import { jobRegistry } from "@/lib/operations/runtime/job-registry";
import { runDueJobs } from "@/lib/platform/jobs/worker";
import { freshDbPair } from "../../support/db";
import { newSubscription, registeredTransfer, TRANSFER_TTL_SECONDS, type Owner } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;
/** A second worker's database: its own connection pool on PostgreSQL (PGlite has one connection). */
let db2: Db;

before(async () => {
  ({ db, db2, close } = await freshDbPair());
});

after(() => close());

beforeEach(async () => {
  // The PostgreSQL database is shared by every file of a run: only this case's jobs may run.
  await db.delete(jobs);
});

// ---- Fixtures -----------------------------------------------------------------------------------

/** Moves a registered transfer to funding as the fast-check and confirm do, with its funding session. */
async function fundingTransfer(owner: Owner) {
  const { transitionTransfer, lockTransfer } = await import("@/lib/payments/transfers/records");
  const { openFundingSession } = await import("@/lib/payments/transfers/funding");
  const created = await registeredTransfer(db, owner);
  return db.transaction(async (tx) => {
    const now = clock.now();
    const row = (await lockTransfer(tx, created.id))!;
    const validated = await transitionTransfer(tx, row, "fastCheck.passed", now);
    const funding = await transitionTransfer(tx, validated, "confirm", now, { confirmedAt: now });
    const session = await openFundingSession(tx, funding, now);
    return { transfer: funding, fundingSessionId: session.fundingSessionId };
  });
}

async function historyOf(transferId: string) {
  return db.select().from(transferStateHistory).where(eq(transferStateHistory.transferId, transferId)).orderBy(asc(transferStateHistory.seq));
}

/** transfer.state.changed events of the transfer, in sequence order, as [state, reasonCode]. */
async function stateEventsOf(subscriptionId: string, transferId: string) {
  const rows = await db
    .select()
    .from(events)
    .where(
      and(
        eq(events.subscriptionId, subscriptionId),
        eq(events.eventType, "transfer.state.changed"),
        sql`${events.body}->'data'->>'transferId' = ${transferId}`,
      ),
    )
    .orderBy(asc(events.sequence));
  return rows.map((e) => {
    const data = (e.body as { data: { state: string; reasonCode: string } }).data;
    return [data.state, data.reasonCode];
  });
}

/** Runs two workers at once, each claiming one job at a time, until neither finds a due job. */
async function twoWorkers(): Promise<[number, number]> {
  const worker = async (d: Db) => {
    let ran = 0;
    for (let k = await runDueJobs(d, jobRegistry, 1); k > 0; k = await runDueJobs(d, jobRegistry, 1)) ran += k;
    return ran;
  };
  return Promise.all([worker(db), worker(db2)]);
}

/** Every job of these kinds finished cleanly: done, first attempt, no error. */
async function assertJobsClean(kinds: string[], expected: number) {
  const rows = await db.select().from(jobs).where(inArray(jobs.kind, kinds));
  assert.equal(rows.length, expected, `${expected} ${kinds.join("/")} jobs`);
  for (const j of rows) {
    assert.equal(j.state, "done", `${j.kind} ${j.id}: ${j.state} ${j.lastError ?? ""}`);
    assert.equal(j.attempts, 1, `${j.kind} ${j.id} ran ${j.attempts} times`);
    assert.equal(j.lastError, null);
  }
}

// ---- Tests --------------------------------------------------------------------------------------

describe("transfer timers under concurrent workers", () => {
  it("transfers.expire enqueued twice (different dedupe keys), two workers at once: expired once, one history entry, one event", async () => {
    const owner = await newSubscription(db);
    const transfer = await registeredTransfer(db, owner);
    clock.advance((TRANSFER_TTL_SECONDS + 1) * 1000);
    await db.delete(jobs); // the registration's webhook delivery is not part of this race
    for (const dedupeKey of [`transfers.expire:${transfer.id}`, `transfers.expire:${transfer.id}:sweep`]) {
      await enqueue(db, "transfers.expire", { transferId: transfer.id }, { runAt: clock.now(), dedupeKey });
    }
    assert.equal((await db.select().from(jobs).where(eq(jobs.kind, "transfers.expire"))).length, 2, "two distinct jobs");

    const [a, b] = await Promise.all([runDueJobs(db, jobRegistry, 1), runDueJobs(db2, jobRegistry, 1)]);
    assert.deepEqual([a, b], [1, 1], "each worker claimed one of the two jobs");

    const [row] = await db.select().from(transfers).where(eq(transfers.id, transfer.id));
    assert.equal(row.state, "expired");
    const history = await historyOf(transfer.id);
    assert.deepEqual(
      history.map((h) => [h.seq, h.state, h.reasonCode]),
      [
        [1, "registered", "TRF_INITIATION_QUOTE_ACCEPTED"],
        [2, "expired", "TRF_EXPIRED_TIMEOUT"],
      ],
    );
    assert.deepEqual(await stateEventsOf(owner.subscriptionId, transfer.id), [
      ["registered", "TRF_INITIATION_QUOTE_ACCEPTED"],
      ["expired", "TRF_EXPIRED_TIMEOUT"],
    ]);
    await assertJobsClean(["transfers.expire"], 2);
  });

  it("many overdue transfers, two expire jobs each, two workers draining the queue: every transfer expires exactly once", async () => {
    const N = 12;
    const owner = await newSubscription(db);
    const created = [];
    for (let i = 0; i < N; i++) created.push(await registeredTransfer(db, owner));
    clock.advance((TRANSFER_TTL_SECONDS + 1) * 1000);
    await db.delete(jobs);
    // Interleaved so the two copies of one transfer's job are claimed next to each other.
    for (const t of created) {
      await enqueue(db, "transfers.expire", { transferId: t.id }, { runAt: clock.now(), dedupeKey: `transfers.expire:${t.id}` });
      await enqueue(db, "transfers.expire", { transferId: t.id }, { runAt: clock.now(), dedupeKey: `transfers.expire:${t.id}:again` });
    }

    const [a, b] = await twoWorkers();
    // The expiries' webhook deliveries (due at once) run too; the expire jobs are checked below.
    assert.ok(a + b >= 2 * N, `ran ${a} + ${b}`);
    if (process.env.TEST_DB_URL) assert.ok(a > 0 && b > 0, `both workers took part (${a}, ${b})`);

    for (const t of created) {
      const history = await historyOf(t.id);
      assert.equal(history.filter((h) => h.reasonCode === "TRF_EXPIRED_TIMEOUT").length, 1, `${t.id}: ${JSON.stringify(history)}`);
      assert.deepEqual(
        history.map((h) => h.seq),
        [1, 2],
      );
      const expiredEvents = (await stateEventsOf(owner.subscriptionId, t.id)).filter(([state]) => state === "expired");
      assert.equal(expiredEvents.length, 1, t.id);
    }
    const [sub] = await db.select().from(subscriptions).where(eq(subscriptions.id, owner.subscriptionId));
    assert.equal(sub.eventSequence, 2 * N, "one registered and one expired event per transfer, nothing else");
    await assertJobsClean(["transfers.expire"], 2 * N);
  });

  it("funding.expire enqueued twice, two workers at once: back to validated once, the session expired once", async () => {
    const owner = await newSubscription(db);
    const { transfer, fundingSessionId } = await fundingTransfer(owner);
    clock.advance((30 * 60 + 1) * 1000);
    await db.delete(jobs); // drops the session's own timer and the webhook deliveries; two copies follow
    for (const dedupeKey of [`funding.expire:${fundingSessionId}`, `funding.expire:${fundingSessionId}:again`]) {
      await enqueue(db, "funding.expire", { fundingSessionId }, { runAt: clock.now(), dedupeKey });
    }

    const [a, b] = await Promise.all([runDueJobs(db, jobRegistry, 1), runDueJobs(db2, jobRegistry, 1)]);
    assert.deepEqual([a, b], [1, 1], "each worker claimed one of the two jobs");

    const [row] = await db.select().from(transfers).where(eq(transfers.id, transfer.id));
    assert.equal(row.state, "validated");
    assert.deepEqual(
      (await historyOf(transfer.id)).map((h) => h.reasonCode),
      ["TRF_INITIATION_QUOTE_ACCEPTED", "TRF_CHECK_PASSED", "TRF_AUTH_DEVICE_VERIFIED", "TRF_FUNDING_SESSION_EXPIRED"],
    );
    assert.deepEqual(
      (await stateEventsOf(owner.subscriptionId, transfer.id)).map(([, reason]) => reason),
      ["TRF_INITIATION_QUOTE_ACCEPTED", "TRF_CHECK_PASSED", "TRF_AUTH_DEVICE_VERIFIED", "TRF_FUNDING_SESSION_EXPIRED"],
    );
    const sessions = await db.select().from(fundingSessions).where(eq(fundingSessions.transferId, transfer.id));
    assert.deepEqual(
      sessions.map((s) => [s.id, s.state]),
      [[fundingSessionId, "EXPIRED"]],
    );
    await assertJobsClean(["funding.expire"], 2);
  });
});
