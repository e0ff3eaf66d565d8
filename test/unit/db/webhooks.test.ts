import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, beforeEach, describe, it } from "node:test";
import { asc, eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { customers, events, jobs, partners, subscriptions, webhookAttempts } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { emitEvent, type EventType } from "@/lib/partners/events/emit";
import { enqueue } from "@/lib/platform/jobs/queue";
import { jobRegistry } from "@/lib/operations/runtime/job-registry";
import { runDueJobs } from "@/lib/platform/jobs/worker";
import { freshDb, secondConnection } from "../../support/db";

let db: Db;
let close: () => Promise<void>;
/** A second worker's database: its own connection pool on PostgreSQL. */
let db2: Db;
let closeDb2: () => Promise<void> = async () => {};

// ---- A partner's webhook receiver --------------------------------------------------------------
// One local server; each test partner gets its own path (/<partnerId>) and response plan.

interface Received {
  partnerId: string;
  headers: Record<string, string>;
  body: string;
  /** What `new Webhook(secret).verify(body, headers)` returned (null when it threw). */
  verified: unknown;
  verifyError: string | null;
  status: number;
  receivedAtMs: number;
  /** When the answer was sent (after the configured delay). */
  respondedAtMs: number;
}

let server: Server;
let baseUrl: string;
const received: Received[] = [];
const secrets = new Map<string, string>();
/** Status to answer per partner; the default answers 200. */
const plans = new Map<string, (r: Received) => number>();
const delays = new Map<string, number>();

function receivedBy(partnerId: string) {
  return received.filter((r) => r.partnerId === partnerId);
}

const seqOf = (r: Received) => (JSON.parse(r.body) as { sequence: number }).sequence;
const idOf = (r: Received) => (JSON.parse(r.body) as { eventId: string }).eventId;

async function startReceiver() {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const partnerId = decodeURIComponent((req.url ?? "/").slice(1));
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(",") : (v ?? "")]));
      const rec: Received = { partnerId, headers, body, verified: null, verifyError: null, status: 0, receivedAtMs: performance.now(), respondedAtMs: 0 };
      try {
        rec.verified = new Webhook(secrets.get(partnerId) ?? "whsec_bm9zZWNyZXQ=").verify(body, headers);
      } catch (err) {
        rec.verifyError = err instanceof Error ? err.message : String(err);
      }
      rec.status = plans.get(partnerId)?.(rec) ?? 200;
      received.push(rec);
      const delay = delays.get(partnerId) ?? 0;
      if (delay) await new Promise((r) => setTimeout(r, delay));
      rec.respondedAtMs = performance.now();
      res.writeHead(rec.status, { "content-type": "text/plain" }).end("thanks");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

// ---- Fixtures -----------------------------------------------------------------------------------

const whsec = () => `whsec_${randomBytes(24).toString("base64")}`;

/** A partner row; with a webhook URL on the local receiver unless told otherwise. */
async function newPartner(opts: { webhookUrl?: string | null; secret?: string | null } = {}): Promise<string> {
  const id = newId("partner_test");
  const secret = opts.secret === undefined ? whsec() : opts.secret;
  const url = opts.webhookUrl === undefined ? `${baseUrl}/${id}` : opts.webhookUrl;
  const now = clock.now();
  await db.insert(partners).values({ id, name: `Test ${id}`, webhookUrl: url, webhookSecret: secret, createdAt: now, updatedAt: now });
  if (secret) secrets.set(id, secret);
  return id;
}

async function newSubscription(partnerId: string): Promise<string> {
  const now = clock.now();
  const customerId = newId("cus");
  const id = newId("sub");
  await db.insert(customers).values({ id: customerId, createdAt: now, updatedAt: now });
  await db.insert(subscriptions).values({ id, partnerId, customerId, createdAt: now, updatedAt: now });
  return id;
}

async function emit(subscriptionId: string, data: Record<string, unknown> = {}, eventType: EventType = "customer.status.changed") {
  return db.transaction((tx) => emitEvent(tx, { subscriptionId, eventType, data, now: clock.now() }));
}

async function eventsOf(subscriptionId: string) {
  return db.select().from(events).where(eq(events.subscriptionId, subscriptionId)).orderBy(asc(events.sequence));
}

async function eventById(id: string) {
  const [row] = await db.select().from(events).where(eq(events.id, id));
  return row;
}

async function jobOf(eventId: string) {
  const rows = await db
    .select()
    .from(jobs)
    .where(sql`${jobs.payload}->>'eventId' = ${eventId}`);
  assert.equal(rows.length, 1, `one delivery job for ${eventId}`);
  return rows[0];
}

async function attemptsOf(eventId: string) {
  return db.select().from(webhookAttempts).where(eq(webhookAttempts.eventId, eventId)).orderBy(asc(webhookAttempts.attemptedAt));
}

/** Runs jobs until none is due (RetryLater and backoff push jobs to the future, so this ends). */
async function drain(d: Db = db, limit?: number) {
  let total = 0;
  for (let i = 0; i < 50; i++) {
    const ran = await runDueJobs(d, jobRegistry, limit);
    if (ran === 0) return total;
    total += ran;
  }
  throw new Error("jobs kept running");
}

// ---- Setup --------------------------------------------------------------------------------------

before(async () => {
  ({ db, close } = await freshDb());
  await startReceiver();
  ({ db: db2, close: closeDb2 } = await secondConnection(db));
});

after(async () => {
  await new Promise((r) => server.close(r));
  await closeDb2();
  await close();
});

beforeEach(async () => {
  // The PostgreSQL database is shared by every file of a run: only this case's jobs may run.
  await db.delete(jobs);
  received.length = 0;
  plans.clear();
  delays.clear();
});

// ---- emitEvent ------------------------------------------------------------------------------------

describe("emitEvent", () => {
  it("numbers a subscription's events 1, 2, 3 and enqueues one delivery job each", async () => {
    const partnerId = await newPartner();
    const sub = await newSubscription(partnerId);
    const other = await newSubscription(partnerId);
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await emit(sub, { status: `S${i}` }));
    const otherResult = await emit(other);
    assert.deepEqual(
      results.map((r) => r.sequence),
      [1, 2, 3],
    );
    assert.equal(otherResult.sequence, 1, "each subscription has its own sequence");

    const rows = await eventsOf(sub);
    assert.deepEqual(
      rows.map((e) => [e.id, e.sequence]),
      results.map((r) => [r.eventId, r.sequence]),
    );
    const [subRow] = await db.select().from(subscriptions).where(eq(subscriptions.id, sub));
    assert.equal(subRow.eventSequence, 3);

    for (const [i, e] of rows.entries()) {
      assert.equal(e.partnerId, partnerId);
      assert.equal(e.eventType, "customer.status.changed");
      assert.equal(e.deliveryState, "pending");
      assert.equal(e.deliveredAt, null);
      assert.deepEqual(e.body, {
        eventId: e.id,
        eventType: "customer.status.changed",
        occurredAt: e.occurredAt.toISOString(),
        subscriptionId: sub,
        sequence: i + 1,
        data: { status: `S${i}` },
      });
      const job = await jobOf(e.id);
      assert.equal(job.kind, "webhooks.deliver");
      assert.deepEqual(job.payload, { eventId: e.id });
      assert.equal(job.state, "pending");
      assert.equal(job.dedupeKey, `webhooks.deliver:${e.id}`);
      assert.equal(job.runAt.toISOString(), e.occurredAt.toISOString(), "due at once");
    }
  });

  it("writes nothing when the caller's transaction rolls back: no event, no job, no sequence number used", async () => {
    const partnerId = await newPartner();
    const sub = await newSubscription(partnerId);
    let emittedId = "";
    await assert.rejects(
      db.transaction(async (tx) => {
        const r = await emitEvent(tx, { subscriptionId: sub, eventType: "transfer.state.changed", data: {}, now: clock.now() });
        emittedId = r.eventId;
        assert.equal(r.sequence, 1);
        throw new Error("the state change failed");
      }),
      /the state change failed/,
    );
    assert.ok(emittedId);
    assert.deepEqual(await eventsOf(sub), []);
    assert.deepEqual(
      await db
        .select()
        .from(jobs)
        .where(sql`${jobs.payload}->>'eventId' = ${emittedId}`),
      [],
    );
    const [subRow] = await db.select().from(subscriptions).where(eq(subscriptions.id, sub));
    assert.equal(subRow.eventSequence, 0);
    assert.equal((await emit(sub)).sequence, 1, "the rolled-back number is reused");
  });

  it("numbers several events of one transaction in order", async () => {
    const sub = await newSubscription(await newPartner());
    const seqs = await db.transaction(async (tx) => {
      const out = [];
      for (const eventType of ["customer.status.changed", "beneficiary.state.changed", "transfer.state.changed"] as const) {
        out.push((await emitEvent(tx, { subscriptionId: sub, eventType, data: {}, now: clock.now() })).sequence);
      }
      return out;
    });
    assert.deepEqual(seqs, [1, 2, 3]);
    assert.deepEqual(
      (await eventsOf(sub)).map((e) => e.eventType),
      ["customer.status.changed", "beneficiary.state.changed", "transfer.state.changed"],
    );
  });

  it("concurrent emitters on one subscription get distinct consecutive numbers", async () => {
    const sub = await newSubscription(await newPartner());
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => emit(sub, { i })));
    assert.deepEqual(
      results.map((r) => r.sequence).sort((a, b) => a - b),
      [1, 2, 3, 4, 5, 6, 7, 8],
    );
    assert.deepEqual(
      (await eventsOf(sub)).map((e) => e.sequence),
      [1, 2, 3, 4, 5, 6, 7, 8],
    );
  });

  it("refuses an unknown subscription (and the transaction writes nothing)", async () => {
    await assert.rejects(emit("sub_does_not_exist"), /unknown subscription/);
  });
});

// ---- Delivery -------------------------------------------------------------------------------------

describe("webhook delivery", () => {
  it("POSTs the event body, signed per Standard Webhooks, and marks it delivered", async () => {
    const partnerId = await newPartner();
    const sub = await newSubscription(partnerId);
    const data = { status: "ACTIVE", kycStatus: "APPROVED", previousStatus: "PENDING", previousKycStatus: "IN_REVIEW", remediationHint: null, note: "café ✓" };
    const { eventId } = await emit(sub, data);
    const event = await eventById(eventId);

    assert.equal(await runDueJobs(db, jobRegistry), 1);
    const got = receivedBy(partnerId);
    assert.equal(got.length, 1);
    const [r] = got;
    assert.equal(r.verifyError, null, `signature must verify: ${r.verifyError}`);
    assert.equal(r.headers["webhook-id"], eventId);
    assert.match(r.headers["webhook-timestamp"], /^\d{10}$/);
    assert.ok(Math.abs(Number(r.headers["webhook-timestamp"]) - Date.now() / 1000) < 60, "timestamp is the sending time (seconds)");
    assert.match(r.headers["webhook-signature"], /^v1,[A-Za-z0-9+/]{43}=$/);
    assert.match(r.headers["content-type"], /^application\/json/);
    // The body is the stored event body, byte for byte what was signed.
    assert.equal(r.body, JSON.stringify(event.body));
    assert.deepEqual(JSON.parse(r.body), {
      eventId,
      eventType: "customer.status.changed",
      occurredAt: event.occurredAt.toISOString(),
      subscriptionId: sub,
      sequence: 1,
      data,
    });
    assert.deepEqual(r.verified, JSON.parse(r.body));
    // Tampering is detected: the signature covers id, timestamp and body.
    const wh = new Webhook(secrets.get(partnerId)!);
    assert.throws(() => wh.verify(r.body.replace("ACTIVE", "BLOCKED"), r.headers));
    assert.throws(() => wh.verify(r.body, { ...r.headers, "webhook-id": "evt_other" }));
    assert.throws(() => new Webhook(whsec()).verify(r.body, r.headers), "another secret does not verify");

    const after = await eventById(eventId);
    assert.equal(after.deliveryState, "delivered");
    assert.ok(after.deliveredAt);
    const job = await jobOf(eventId);
    assert.equal(job.state, "done");
    assert.equal(job.attempts, 1);

    const attempts = await attemptsOf(eventId);
    assert.equal(attempts.length, 1);
    assert.equal(attempts[0].statusCode, 200);
    assert.equal(attempts[0].partnerId, partnerId);
    assert.equal(attempts[0].url, `${baseUrl}/${partnerId}`);
    assert.equal(attempts[0].error, null);
    assert.ok(Number.isInteger(attempts[0].latencyMs) && attempts[0].latencyMs >= 0 && attempts[0].latencyMs < 5000);
  });

  it("signs with a timestamp the receiver accepts even after the service clock was moved forward", async () => {
    const partnerId = await newPartner();
    const sub = await newSubscription(partnerId);
    clock.advance(6 * 3600 * 1000);
    await emit(sub, { status: "ACTIVE" });
    await drain();
    const [r] = receivedBy(partnerId);
    assert.ok(r, "delivered");
    assert.equal(r.verifyError, null, `a receiver checking the timestamp against its own clock must accept it: ${r.verifyError}`);
  });

  it("does not deliver an event twice when its job runs again after delivery", async () => {
    const partnerId = await newPartner();
    const sub = await newSubscription(partnerId);
    const { eventId } = await emit(sub);
    await drain();
    await enqueue(db, "webhooks.deliver", { eventId }, { runAt: clock.now() });
    assert.equal(await drain(), 1);
    assert.equal(receivedBy(partnerId).length, 1);
    assert.equal((await attemptsOf(eventId)).length, 1);
  });

  it("delivers in sequence order: event 2 waits until event 1 succeeds, even when event 1 first fails", async () => {
    const partnerId = await newPartner();
    const sub = await newSubscription(partnerId);
    let firstCall = true;
    plans.set(partnerId, () => {
      const status = firstCall ? 500 : 200;
      firstCall = false;
      return status;
    });
    const [e1, e2] = await db.transaction(async (tx) => [
      await emitEvent(tx, { subscriptionId: sub, eventType: "customer.status.changed", data: { n: 1 }, now: clock.now() }),
      await emitEvent(tx, { subscriptionId: sub, eventType: "customer.status.changed", data: { n: 2 }, now: clock.now() }),
    ]);

    const from = clock.now();
    await drain();
    const to = clock.now();
    assert.deepEqual(receivedBy(partnerId).map(idOf), [e1.eventId], "only event 1 was attempted");
    assert.equal((await eventById(e1.eventId)).deliveryState, "pending");
    assert.equal((await eventById(e2.eventId)).deliveryState, "pending");
    assert.deepEqual(await attemptsOf(e2.eventId), []);

    // Event 1's retry is 5-6 s later (Standard Webhooks schedule plus jitter), with the failure recorded.
    const job1 = await jobOf(e1.eventId);
    assert.equal(job1.state, "pending");
    assert.equal(job1.attempts, 1);
    assert.match(job1.lastError ?? "", /500/);
    assert.ok(job1.runAt.getTime() >= from.getTime() + 5000 && job1.runAt.getTime() <= to.getTime() + 6000, `runAt ${job1.runAt.toISOString()}`);
    // Event 2 waits without using up its attempts.
    const job2 = await jobOf(e2.eventId);
    assert.equal(job2.state, "pending");
    assert.equal(job2.attempts, 0);

    clock.advance(4_000);
    assert.equal(await drain(), 0, "nothing is due before the 5 s backoff");
    assert.equal(receivedBy(partnerId).length, 1);

    clock.advance(2_100);
    await drain();
    // Event 1 succeeded, and its delivery moved event 2 forward: no 60 s wait.
    assert.deepEqual(
      receivedBy(partnerId).map((r) => [seqOf(r), r.status]),
      [
        [1, 500],
        [1, 200],
        [2, 200],
      ],
    );
    assert.ok(receivedBy(partnerId).every((r) => r.verifyError === null));
    assert.equal((await eventById(e1.eventId)).deliveryState, "delivered");
    assert.equal((await eventById(e2.eventId)).deliveryState, "delivered");
    assert.equal((await jobOf(e2.eventId)).attempts, 1);

    // Every attempt is logged, with its status code and latency.
    const a1 = await attemptsOf(e1.eventId);
    assert.deepEqual(
      a1.map((a) => [a.statusCode, a.error]),
      [
        [500, "HTTP 500"],
        [200, null],
      ],
    );
    assert.ok(a1.every((a) => Number.isInteger(a.latencyMs) && a.latencyMs >= 0));
    assert.ok(a1[1].attemptedAt.getTime() - a1[0].attemptedAt.getTime() >= 5000);
    assert.deepEqual(
      (await attemptsOf(e2.eventId)).map((a) => a.statusCode),
      [200],
    );
  });

  it("two workers delivering one subscription's events keep sequence order, each event once", async () => {
    const partnerId = await newPartner();
    const sub = await newSubscription(partnerId);
    delays.set(partnerId, 30);
    for (let i = 1; i <= 6; i++) await emit(sub, { i });
    for (let round = 0; round < 20; round++) {
      // One job per claim, so the two workers hold different events of the subscription at once.
      await Promise.all([drain(db, 1), drain(db2, 1)]);
      if ((await eventsOf(sub)).every((e) => e.deliveryState === "delivered")) break;
      clock.advance(61_000);
    }
    const got = receivedBy(partnerId);
    assert.deepEqual(got.map(seqOf), [1, 2, 3, 4, 5, 6]);
    // Each event went out only after the previous one was acknowledged.
    for (let i = 1; i < got.length; i++) {
      assert.ok(got[i].receivedAtMs >= got[i - 1].respondedAtMs, `event ${i + 1} was sent before event ${i} was acknowledged`);
    }
  });

  it("logs an attempt that got no response (connection refused) with a null status and the error", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const partnerId = await newPartner({ webhookUrl: `http://127.0.0.1:${port}/nobody-home` });
    const sub = await newSubscription(partnerId);
    const { eventId } = await emit(sub);
    await drain();
    const attempts = await attemptsOf(eventId);
    assert.equal(attempts.length, 1);
    assert.equal(attempts[0].statusCode, null);
    assert.ok(attempts[0].error && attempts[0].error.length > 0);
    assert.equal(attempts[0].url, `http://127.0.0.1:${port}/nobody-home`);
    const job = await jobOf(eventId);
    assert.equal(job.state, "pending");
    assert.equal(job.attempts, 1);
    assert.equal((await eventById(eventId)).deliveryState, "pending");
  });

  it("marks events undeliverable when the partner has no webhook URL, without blocking later ones (no delivery job at all)", async () => {
    const noUrl = await newPartner({ webhookUrl: null, secret: null });
    const sub = await newSubscription(noUrl);
    const e1 = await emit(sub);
    const e2 = await emit(sub);
    for (const { eventId } of [e1, e2]) {
      // Settled by the statement that wrote it: nothing is left for a worker.
      const e = await eventById(eventId);
      assert.equal(e.deliveryState, "undeliverable");
      assert.equal(e.deliveredAt, null);
      assert.deepEqual(
        await db
          .select()
          .from(jobs)
          .where(sql`${jobs.payload}->>'eventId' = ${eventId}`),
        [],
      );
      assert.deepEqual(await attemptsOf(eventId), []);
    }
    await drain();
    assert.equal(received.length, 0);
  });

  it("a URL without a signing secret is undeliverable too (never sent unsigned)", async () => {
    const noSecret = await newPartner({ secret: null });
    const sub = await newSubscription(noSecret);
    const { eventId } = await emit(sub);
    await drain();
    assert.equal((await eventById(eventId)).deliveryState, "undeliverable");
    assert.equal(receivedBy(noSecret).length, 0);
  });

  it("retries on the Standard Webhooks schedule for more than 24 hours, then fails the event and moves on", async () => {
    const partnerId = await newPartner();
    const sub = await newSubscription(partnerId);
    const e1 = await emit(sub, { n: 1 });
    const e2 = await emit(sub, { n: 2 });
    // The endpoint rejects event 1 forever and would accept anything else.
    plans.set(partnerId, (r) => (idOf(r) === e1.eventId ? 503 : 200));
    const sentOf = (eventId: string) => receivedBy(partnerId).filter((r) => idOf(r) === eventId);

    const delaysSeen: number[] = [];
    const firstAttemptAt = clock.nowMs();
    let lastAttemptAt = firstAttemptAt;
    const maxAttempts = (await jobOf(e1.eventId)).maxAttempts;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const from = clock.nowMs();
      await drain();
      lastAttemptAt = clock.nowMs();
      assert.equal(sentOf(e1.eventId).length, attempt, `attempt ${attempt} was made`);
      const job = await jobOf(e1.eventId);
      assert.equal(job.attempts, attempt);
      if (attempt === maxAttempts) {
        assert.equal(job.state, "dead");
        break;
      }
      assert.equal(job.state, "pending");
      assert.equal(sentOf(e2.eventId).length, 0, "event 2 is not sent while event 1 is being retried");
      const delay = Math.round((job.runAt.getTime() - from) / 1000);
      delaysSeen.push(delay);
      // Not a moment early (event 2's job may run meanwhile, only to wait again)...
      clock.advance(delay * 1000 - 2000);
      await drain();
      assert.equal(sentOf(e1.eventId).length, attempt, `attempt ${attempt + 1} not before its backoff`);
      clock.advance(2100);
    }
    // Standard Webhooks: immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: 8 attempts,
    // each delay with up to 20 % jitter added (never less than scheduled).
    assert.equal(maxAttempts, 8);
    const schedule = [5, 300, 1800, 7200, 18000, 36000, 36000];
    assert.equal(delaysSeen.length, schedule.length);
    delaysSeen.forEach((d, i) => assert.ok(d >= schedule[i] && d <= Math.ceil(schedule[i] * 1.2) + 1, `delay ${i + 1}: ${d} s`));
    // Decisions section 9: retried for at least 24 hours (here about 27.6 h).
    assert.ok(lastAttemptAt - firstAttemptAt >= 24 * 3600 * 1000, `retried for ${(lastAttemptAt - firstAttemptAt) / 3600000} h`);
    assert.ok(
      receivedBy(partnerId).every((r) => r.verifyError === null),
      "signatures verify whatever the service clock says",
    );
    const logged = await attemptsOf(e1.eventId);
    assert.equal(logged.length, maxAttempts, "every attempt is logged");
    assert.ok(logged.every((a) => a.statusCode === 503 && a.error === "HTTP 503"));

    // Given up: event 1 is failed (replayable later) and no longer holds event 2 back, which went
    // out right after, without waiting.
    const failed = await eventById(e1.eventId);
    assert.equal(failed.deliveryState, "failed");
    assert.equal(failed.deliveredAt, null);
    assert.equal((await eventById(e2.eventId)).deliveryState, "delivered");
    assert.deepEqual(receivedBy(partnerId).map(seqOf), [...Array(maxAttempts).fill(1), 2]);
    const e2Job = await jobOf(e2.eventId);
    assert.equal(e2Job.state, "done");
    assert.equal(e2Job.attempts, 1, "waiting its turn did not use up event 2's attempts");
  });
});
