/**
 * Statements per job as the worker runs it (runDueJobs: its claim, the job's own statements, its
 * outcome), counted on the database handle and on its transactions' connections (BEGIN and COMMIT
 * apart: ./support/counted.ts). A job's "done" is written in the statement of its last writes, not
 * in one of its own: a `run` job's with its unit's effects at commit (the fast-check: 6 → 5), a
 * `perform` job's with its settlement (a delivery: 4 → 3; the receipt e-mail in sandbox: 4 → 3).
 * The claim still decides: a job taken over meanwhile writes nothing of its own outcome.
 * PGlite, or PostgreSQL with TEST_DB_URL.
 */
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, beforeEach, describe, it } from "node:test";
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { customers, events, jobs, loginIdentifiers, partners, subscriptions, transfers, webhookAttempts } from "@/db/schema";
import { addSeconds, clock } from "@/lib/platform/clock";
import { enqueue } from "@/lib/platform/jobs/queue";
import type { JobKind } from "@/lib/platform/jobs/kinds";
import { freshDb } from "../../support/db";
import { newSubscription, registeredTransfer, submittedTransfer, type Owner } from "../../support/fixtures";
import { countStatements } from "./support/counted";

let db: Db;
let close: () => Promise<void>;
let statements = 0;
let server: Server;
let baseUrl: string;

before(async () => {
  ({ db, close } = await freshDb());
  // Every statement from here on, on the handle and in its transactions (prepared queries capture the client when built).
  countStatements(db, () => statements++, undefined, { transactions: true });
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "content-type": "text/plain" }).end("thanks"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await close();
});

beforeEach(async () => {
  // The PostgreSQL database is shared by every file of a run: start each case from no jobs.
  await db.delete(jobs);
});

/** Runs the due jobs of one kind as the worker does; answers the statements they sent. */
async function runKind(kind: JobKind): Promise<number> {
  const { runDueJobs } = await import("@/lib/platform/jobs/worker");
  const { jobRegistry } = await import("@/lib/operations/runtime/job-registry");
  const { workerSettings } = await import("@/lib/platform/jobs/lanes");
  const before = statements;
  assert.equal(await runDueJobs(db, jobRegistry, 1, workerSettings(), { kinds: [kind] }), 1);
  return statements - before;
}

async function jobState(kind: string): Promise<string[]> {
  return (await db.select({ state: jobs.state }).from(jobs).where(eq(jobs.kind, kind))).map((j) => j.state);
}

/** A submitted transfer (registered, with a stored CLABE payout method) and its fast-check, due now. */
async function fastCheckDue(): Promise<string> {
  const transferId = await submittedTransfer(db, await newSubscription(db));
  await enqueue(db, "transfers.fastCheck", { transferId }, { runAt: clock.now() });
  return transferId;
}

/** A transfer of `owner` funded by card now, with its receipt e-mail job due (the customer has an e-mail login). */
async function receiptDue(owner: Owner): Promise<void> {
  const { lockTransfer, transitionTransfer } = await import("@/lib/payments/transfers/records");
  const { openFundingSession, lockFundingSession, completeFunding } = await import("@/lib/payments/transfers/funding");
  const t = await registeredTransfer(db, owner);
  const now = clock.now();
  await db.transaction(async (tx) => {
    const row = (await lockTransfer(tx, t.id))!;
    const funding = await transitionTransfer(tx, await transitionTransfer(tx, row, "fastCheck.passed", now), "confirm", now);
    const { fundingSessionId } = await openFundingSession(tx, funding, now);
    await completeFunding(tx, { ...(await lockFundingSession(tx, fundingSessionId))!, outcome: "SUCCEEDED", method: "CARD", now });
  });
}

/** A partner whose endpoint (the local receiver) answers 200, and an event of one of its subscriptions with its delivery due. */
async function deliveryDue(): Promise<string> {
  const { emitEvent } = await import("@/lib/partners/events/emit");
  const now = clock.now();
  const partnerId = newId("partner_test");
  await db
    .insert(partners)
    .values({ id: partnerId, name: "Test", webhookUrl: `${baseUrl}/${partnerId}`, webhookSecret: "whsec_bm9zZWNyZXQ=", createdAt: now, updatedAt: now });
  const customerId = newId("cus");
  const subscriptionId = newId("sub");
  await db.insert(customers).values({ id: customerId, createdAt: now, updatedAt: now });
  await db.insert(subscriptions).values({ id: subscriptionId, partnerId, customerId, createdAt: now, updatedAt: now });
  const { eventId } = await db.transaction((tx) => emitEvent(tx, { subscriptionId, eventType: "customer.status.changed", data: {}, now }));
  return eventId;
}

describe("statements per job, as the worker runs it", () => {
  it("a fast-check: the claim, its four statements, the state change's effects with the job's done: 5", async () => {
    // The process's first fast-check reads the sets in force and the service secrets (kept afterwards): not counted.
    await fastCheckDue();
    await runKind("transfers.fastCheck");
    await db.delete(jobs);
    const transferId = await fastCheckDue();
    assert.equal(await runKind("transfers.fastCheck"), 5);
    const [t] = await db.select().from(transfers).where(eq(transfers.id, transferId));
    assert.equal(t.state, "validated");
    assert.deepEqual(await jobState("transfers.fastCheck"), ["done"]);
  });

  it("a fast-check whose claim was taken over while it ran writes nothing: its unit rolls back, the new holder's row stands", async () => {
    const { runOne, Heartbeat } = await import("@/lib/platform/jobs/worker");
    const { claim } = await import("@/lib/platform/jobs/claim");
    const { jobRegistry } = await import("@/lib/operations/runtime/job-registry");
    const { workerSettings } = await import("@/lib/platform/jobs/lanes");
    const transferId = await fastCheckDue();
    const [job] = await claim(db, clock.now(), 1, { kinds: ["transfers.fastCheck"] }, 30);
    // Another worker took it over (a new token and lease) after this one claimed it.
    await db
      .update(jobs)
      .set({ lockedBy: "another-worker", lockedUntil: addSeconds(clock.now(), 60) })
      .where(eq(jobs.id, job.id));
    const settings = workerSettings();
    await runOne(db, jobRegistry, job, settings, new Heartbeat(db, settings));
    const [t] = await db.select().from(transfers).where(eq(transfers.id, transferId));
    assert.equal(t.state, "registered", "the run's writes rolled back");
    const [row] = await db.select().from(jobs).where(eq(jobs.id, job.id));
    assert.deepEqual([row.state, row.lockedBy], ["running", "another-worker"]);
  });

  it("a delivery: the claim, its read, the attempt and settlement with the job's done: 3", async () => {
    // The first delivery of the process builds its statements: not counted.
    await deliveryDue();
    await runKind("webhooks.deliver");
    const eventId = await deliveryDue();
    assert.equal(await runKind("webhooks.deliver"), 3);
    const [event] = await db.select().from(events).where(eq(events.id, eventId));
    assert.equal(event.deliveryState, "delivered");
    assert.equal((await db.select().from(webhookAttempts).where(eq(webhookAttempts.eventId, eventId))).length, 1);
    const [job] = await db
      .select()
      .from(jobs)
      .where(sql`${jobs.payload}->>'eventId' = ${eventId}`);
    assert.deepEqual([job.state, job.lockedBy, job.finishedAt !== null], ["done", null, true]);
  });

  it("a receipt e-mail (sandbox): the claim, its read, the token and message with the job's done: 3", async () => {
    const owner = await newSubscription(db);
    const email = `${newId("ana")}@example.com`.toLowerCase();
    await db.insert(loginIdentifiers).values({
      id: newId("lid"),
      partnerId: owner.partnerId,
      subscriptionId: owner.subscriptionId,
      type: "EMAIL",
      value: email,
      verifiedAt: clock.now(),
      createdAt: clock.now(),
    });
    await receiptDue(owner);
    await runKind("receipts.email");
    await db.delete(jobs);
    await receiptDue(owner);
    assert.equal(await runKind("receipts.email"), 3);
    assert.deepEqual(await jobState("receipts.email"), ["done"]);
  });
});
