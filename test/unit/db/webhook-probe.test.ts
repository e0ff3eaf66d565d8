import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, beforeEach, describe, it } from "node:test";
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { customers, events, jobs, partners, subscriptions } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { emitEvent } from "@/lib/partners/events/emit";
import { jobRegistry } from "@/lib/operations/runtime/job-registry";
import { runDueJobs } from "@/lib/platform/jobs/worker";
import { freshDb } from "../../support/db";

/**
 * A partner endpoint down for 120 s got its first delivery 194 s after it was back
 * (the Standard Webhooks schedule's next attempt, 5 min after the second). After the first failure
 * the endpoint is probed (5 s, 10 s, 15 s, 30 s, then every 60 s) with its oldest pending event, so
 * a recovered endpoint receives within 60 s of being back, however long it was down; the events'
 * own schedules are not used up by the probes. An endpoint on loopback, down then up, on the
 * clock the jobs use.
 */
let db: Db;
let close: () => Promise<void>;
let server: Server;
let baseUrl: string;
let down = true;
/**
 * Each request the endpoint got: when, the event, and what it answered. "When" is the time the test
 * moved the clock by: wall time also passes while jobs run (slowly on a loaded machine), which only
 * ever makes jobs due earlier, so the test's own time bounds what the service does.
 */
const hits: { at: number; eventId: string; status: number }[] = [];

before(async () => {
  ({ db, close } = await freshDb());
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const status = down ? 503 : 204;
      hits.push({ at: clock.offsetMs(), eventId: String(req.headers["webhook-id"]), status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await close();
});

beforeEach(async () => {
  await db.delete(jobs);
  hits.length = 0;
  down = true;
});

async function newPartner(subscriptionCount: number) {
  const id = newId("partner_t");
  const now = clock.now();
  await db
    .insert(partners)
    .values({ id, name: id, webhookUrl: `${baseUrl}/${id}`, webhookSecret: `whsec_${randomBytes(24).toString("base64")}`, createdAt: now, updatedAt: now });
  const subs: string[] = [];
  for (let i = 0; i < subscriptionCount; i++) {
    const customerId = newId("cus");
    const sub = newId("sub");
    await db.insert(customers).values({ id: customerId, createdAt: now, updatedAt: now });
    await db.insert(subscriptions).values({ id: sub, partnerId: id, customerId, createdAt: now, updatedAt: now });
    subs.push(sub);
  }
  return { id, subs };
}

const emit = (sub: string) => db.transaction((tx) => emitEvent(tx, { subscriptionId: sub, eventType: "customer.status.changed", data: {}, now: clock.now() }));
const stateOf = async (eventId: string) => (await db.select().from(events).where(eq(events.id, eventId)))[0].deliveryState;
const deliveryJob = async (eventId: string) =>
  (
    await db
      .select()
      .from(jobs)
      .where(sql`${jobs.kind} = 'webhooks.deliver' and ${jobs.payload}->>'eventId' = ${eventId}`)
  )[0];

async function drain() {
  for (let i = 0; i < 50; i++) if ((await runDueJobs(db, jobRegistry)) === 0) return;
  throw new Error("jobs kept running");
}

/** Moves the jobs' clock forward `seconds`, `step` seconds at a time, running what is due at each step. */
async function passTime(seconds: number, step = 1) {
  for (let t = 0; t < seconds; t += step) {
    clock.advance(step * 1000);
    await drain();
  }
}

/** Steps the clock until `done` holds; the seconds that took (fails after `limit`). */
async function secondsUntil(done: () => Promise<boolean>, limit: number): Promise<number> {
  const from = clock.offsetMs();
  while (!(await done())) {
    if (clock.offsetMs() - from > limit * 1000) assert.fail(`not within ${limit} s`);
    clock.advance(1000);
    await drain();
  }
  return (clock.offsetMs() - from) / 1000;
}

describe("a recovered webhook endpoint is probed back to life (issue 36 item 7)", () => {
  it("down for 120 s: the first delivery within 60 s of it being back, and every pending event of the partner follows", async () => {
    const p = await newPartner(2);
    const first = await emit(p.subs[0]);
    await drain();
    assert.equal(hits.length, 1, "the first attempt failed");
    await passTime(30);
    // Another subscription's event, while down: its own attempts (now, 5 s) fail too.
    const second = await emit(p.subs[1]);
    await drain();
    await passTime(90);

    down = false;
    const upAt = clock.offsetMs();
    const waited = await secondsUntil(async () => hits.some((h) => h.status === 204), 300);
    assert.ok(waited <= 60, `first delivery ${waited} s after the endpoint was back`);
    // The rest of the partner's pending events go out at once after the probe got through.
    const both = await secondsUntil(async () => (await stateOf(first.eventId)) === "delivered" && (await stateOf(second.eventId)) === "delivered", 300);
    assert.ok(waited + both <= 62, `every pending event delivered ${waited + both} s after the endpoint was back`);
    const failedWhileDown = hits.filter((h) => h.at < upAt);
    assert.ok(
      failedWhileDown.every((h) => h.status === 503),
      "nothing succeeded while down",
    );
  });

  it("down for 30 minutes: probes at most 60 s apart (seconds first, then every minute), delivery within 60 s of recovery, the event's own attempts not used up", async () => {
    const p = await newPartner(1);
    const event = await emit(p.subs[0]);
    const start = clock.offsetMs();
    await drain();
    await passTime(30 * 60, 5);
    const gaps = hits.slice(1).map((h, i) => (h.at - hits[i].at) / 1000);
    // The probe comes every 50 s; the test looks every 5 s.
    assert.ok(Math.max(...gaps) <= 55, `the longest gap between calls was ${Math.max(...gaps)} s`);
    assert.ok(
      hits.slice(0, 4).every((h) => h.at - start < 60_000),
      "the first probes come within the first minute",
    );
    assert.ok(hits.length <= 45, `${hits.length} calls to a down endpoint in 30 minutes`);
    const job = await deliveryJob(event.eventId);
    assert.ok(job.attempts <= 4 && job.attempts < job.maxAttempts, `the event used ${job.attempts} of its ${job.maxAttempts} attempts`);

    down = false;
    const waited = await secondsUntil(async () => (await stateOf(event.eventId)) === "delivered", 300);
    assert.ok(waited <= 60, `delivered ${waited} s after the endpoint was back`);
    await passTime(300, 10);
    assert.equal(hits.filter((h) => h.status === 204).length, 1, "delivered once; the probing stopped");
  });
});
