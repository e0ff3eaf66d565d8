import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, beforeEach, describe, it } from "node:test";
import { asc, eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { customers, events, jobs, partners, subscriptions, webhookAttempts } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { emitEvent } from "@/lib/partners/events/emit";
import { jobRegistry } from "@/lib/operations/runtime/job-registry";
import { runDueJobs } from "@/lib/platform/jobs/worker";
import { updatePartnerSettings } from "@/lib/partners/settings";
import { rotateWebhookSecret } from "@/lib/partners/webhook-secret";
import { reenableEndpoint } from "@/lib/partners/webhooks/endpoint";
import { freshDb } from "../../support/db";

// Secret rotation with dual signatures, Retry-After, jitter, the response
// body cap and 410 Gone, against a local receiver.

let db: Db;
let close: () => Promise<void>;
let server: Server;
let baseUrl: string;

interface Hit {
  partnerId: string;
  headers: IncomingHttpHeaders;
  body: string;
}
const hits: Hit[] = [];
/** How a partner's endpoint answers; the default is 204. */
const plans = new Map<string, (res: ServerResponse, n: number) => void>();

before(async () => {
  ({ db, close } = await freshDb());
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const partnerId = (req.url ?? "/").slice(1);
      hits.push({ partnerId, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const plan = plans.get(partnerId);
      if (plan) plan(res, hits.filter((h) => h.partnerId === partnerId).length);
      else res.writeHead(204).end();
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
  plans.clear();
});

const whsec = () => `whsec_${randomBytes(24).toString("base64")}`;

async function newPartner(secret = whsec()) {
  const id = newId("partner_t");
  const now = clock.now();
  await db.insert(partners).values({ id, name: id, webhookUrl: `${baseUrl}/${id}`, webhookSecret: secret, createdAt: now, updatedAt: now });
  const customerId = newId("cus");
  const sub = newId("sub");
  await db.insert(customers).values({ id: customerId, createdAt: now, updatedAt: now });
  await db.insert(subscriptions).values({ id: sub, partnerId: id, customerId, createdAt: now, updatedAt: now });
  return { id, sub, secret };
}

const emit = (sub: string) => db.transaction((tx) => emitEvent(tx, { subscriptionId: sub, eventType: "customer.status.changed", data: {}, now: clock.now() }));

async function drain() {
  for (let i = 0; i < 50; i++) if ((await runDueJobs(db, jobRegistry)) === 0) return;
  throw new Error("jobs kept running");
}

const hitsOf = (partnerId: string) => hits.filter((h) => h.partnerId === partnerId);
const eventState = async (id: string) => (await db.select().from(events).where(eq(events.id, id)))[0].deliveryState;
const partnerRow = async (id: string) => (await db.select().from(partners).where(eq(partners.id, id)))[0];
const attemptsOf = (eventId: string) => db.select().from(webhookAttempts).where(eq(webhookAttempts.eventId, eventId)).orderBy(asc(webhookAttempts.attemptedAt));
async function jobOf(eventId: string) {
  const [job] = await db
    .select()
    .from(jobs)
    .where(sql`${jobs.payload}->>'eventId' = ${eventId}`);
  return job;
}

function verifies(secret: string, hit: Hit): boolean {
  try {
    new Webhook(secret).verify(hit.body, hit.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

describe("webhook secret rotation", () => {
  it("signs with the new and the previous secret during the window, then with the new one only", async () => {
    const p = await newPartner();
    const now = clock.now();
    const rotated = await db.transaction((tx) => rotateWebhookSecret(tx, p.id, now));
    assert.match(rotated.webhookSecret, /^whsec_[A-Za-z0-9+/]{32}$/);
    assert.notEqual(rotated.webhookSecret, p.secret);
    assert.equal(rotated.previousValidUntil?.getTime(), now.getTime() + 24 * 3600 * 1000, "24 h window by default");

    const { eventId } = await emit(p.sub);
    await drain();
    const [during] = hitsOf(p.id);
    assert.equal(String(during.headers["webhook-signature"]).split(" ").length, 2, "two v1 signatures");
    assert.ok(verifies(p.secret, during), "a receiver still holding the old secret verifies");
    assert.ok(verifies(rotated.webhookSecret, during), "a receiver holding the new secret verifies");
    assert.ok(!verifies(whsec(), during));
    assert.equal(await eventState(eventId), "delivered");

    clock.advance(24 * 3600 * 1000 + 1000);
    await emit(p.sub);
    await drain();
    const [, afterWindow] = hitsOf(p.id);
    assert.match(String(afterWindow.headers["webhook-signature"]), /^v1,[^ ]+$/, "one signature after the window");
    assert.ok(verifies(rotated.webhookSecret, afterWindow));
    assert.ok(!verifies(p.secret, afterWindow), "the old secret no longer verifies");
  });

  it("a retry of an event first sent before the rotation verifies with either secret", async () => {
    const p = await newPartner();
    plans.set(p.id, (res, n) => res.writeHead(n === 1 ? 500 : 204).end());
    const { eventId } = await emit(p.sub);
    await drain();
    assert.ok(verifies(p.secret, hitsOf(p.id)[0]));
    const { webhookSecret } = await db.transaction((tx) => rotateWebhookSecret(tx, p.id, clock.now()));
    clock.advance(10_000);
    await drain();
    const retry = hitsOf(p.id)[1];
    assert.ok(retry, "retried");
    assert.ok(verifies(p.secret, retry) && verifies(webhookSecret, retry));
    assert.equal(await eventState(eventId), "delivered");
  });

  it("the partner rotates through its settings (PUT /v1/sandbox/partner) and gets the new secret back", async () => {
    const p = await newPartner();
    const now = clock.now();
    const out = await db.transaction((tx) => updatePartnerSettings(tx, p.id, { rotateWebhookSecret: true }, now));
    assert.match(out.webhookSecret ?? "", /^whsec_/);
    assert.notEqual(out.webhookSecret, p.secret);
    assert.equal(out.previousWebhookSecretValidUntil, new Date(now.getTime() + 86400_000).toISOString());
    const row = await partnerRow(p.id);
    assert.equal(row.webhookSecret, out.webhookSecret);
    assert.equal(row.webhookPreviousSecret, p.secret);
    // A later settings change without rotation keeps both and reports the window.
    const again = await db.transaction((tx) => updatePartnerSettings(tx, p.id, { pricingMode: "SERVICE_PRICED" }, clock.now()));
    assert.equal(again.webhookSecret, out.webhookSecret);
    assert.equal(again.previousWebhookSecretValidUntil, out.previousWebhookSecretValidUntil);
  });

  it("refuses to rotate when no webhook URL is set", async () => {
    const p = await newPartner();
    await assert.rejects(
      db.transaction((tx) => updatePartnerSettings(tx, p.id, { webhookUrl: null, rotateWebhookSecret: true }, clock.now())),
      (err: { code?: string; details?: { issues: { field: string }[] } }) =>
        err.code === "validation.fieldInvalid" && err.details?.issues[0].field === "rotateWebhookSecret",
    );
  });
});

describe("webhook delivery manners", () => {
  it("honours Retry-After on 429: no attempt before it, and the wait does not use up an attempt", async () => {
    const p = await newPartner();
    plans.set(p.id, (res, n) => (n === 1 ? res.writeHead(429, { "retry-after": "120" }).end() : res.writeHead(204).end()));
    const { eventId } = await emit(p.sub);
    await drain();
    assert.equal(hitsOf(p.id).length, 1);
    assert.ok((await partnerRow(p.id)).webhookNotBefore!.getTime() >= clock.nowMs() + 119_000);

    clock.advance(60_000); // well past the scheduled 5-6 s retry
    await drain();
    assert.equal(hitsOf(p.id).length, 1, "nothing sent before Retry-After");
    assert.equal((await jobOf(eventId)).attempts, 1, "waiting is not a failed attempt");

    clock.advance(61_000);
    await drain();
    assert.equal(hitsOf(p.id).length, 2);
    assert.equal(await eventState(eventId), "delivered");
    assert.deepEqual(
      (await attemptsOf(eventId)).map((a) => a.statusCode),
      [429, 204],
    );
  });

  it("honours Retry-After on 503 as an HTTP date; a 500's Retry-After is not a pause", async () => {
    const p = await newPartner();
    const at = new Date(Date.now() + 300_000).toUTCString();
    plans.set(p.id, (res, n) => (n === 1 ? res.writeHead(503, { "retry-after": at }).end() : res.writeHead(204).end()));
    await emit(p.sub);
    await drain();
    const notBefore = (await partnerRow(p.id)).webhookNotBefore!.getTime() - clock.nowMs();
    assert.ok(notBefore > 290_000 && notBefore <= 301_000, `paused ${notBefore} ms`);

    const q = await newPartner();
    plans.set(q.id, (res) => res.writeHead(500, { "retry-after": "3600" }).end());
    await emit(q.sub);
    await drain();
    assert.equal((await partnerRow(q.id)).webhookNotBefore, null);
  });

  it("retries after the scheduled delay plus jitter (5 to 6 s after a first failure)", async () => {
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) {
      const p = await newPartner();
      plans.set(p.id, (res) => res.writeHead(500).end());
      const { eventId } = await emit(p.sub);
      const from = clock.nowMs();
      await drain();
      delays.push((await jobOf(eventId)).runAt.getTime() - from);
    }
    for (const d of delays) assert.ok(d >= 5000 && d <= 6500, `delay ${d} ms`);
    assert.ok(new Set(delays).size > 1, `jittered: ${delays.join(", ")}`);
  });

  it("reads at most a few kB of a huge response and cancels the rest", async () => {
    const p = await newPartner();
    let written = 0;
    let closed!: () => void;
    const connectionClosed = new Promise<void>((r) => (closed = r));
    const chunk = Buffer.alloc(64 * 1024, "x");
    // 512 MB announced and streamed as fast as the client reads.
    plans.set(p.id, (res) => {
      res.writeHead(200, { "content-type": "text/plain", "content-length": String(512 * 1024 * 1024) });
      res.on("close", closed);
      const pump = () => {
        while (written < 512 * 1024 * 1024 && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
      };
      pump();
    });
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    const { eventId } = await emit(p.sub);
    await drain();
    await connectionClosed;
    const grewMb = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;
    assert.equal(await eventState(eventId), "delivered");
    const [attempt] = await attemptsOf(eventId);
    assert.equal(attempt.statusCode, 200);
    // What the server pushed before we cancelled is bounded by socket buffers, not by 512 MB.
    assert.ok(written < 16 * 1024 * 1024, `server wrote ${written} bytes before the client cancelled`);
    assert.ok(grewMb < 40, `process grew ${grewMb.toFixed(1)} MB`);
  });

  it("disables an endpoint that answers 410 Gone until an operator re-enables it", async () => {
    const p = await newPartner();
    plans.set(p.id, (res, n) => res.writeHead(n === 1 ? 410 : 204).end());
    const first = await emit(p.sub);
    await drain();
    assert.equal(await eventState(first.eventId), "undeliverable");
    assert.deepEqual(
      (await attemptsOf(first.eventId)).map((a) => a.statusCode),
      [410],
    );
    assert.equal((await jobOf(first.eventId)).state, "done", "not retried");
    const disabled = await partnerRow(p.id);
    assert.ok(disabled.webhookDisabledAt);
    assert.match(disabled.webhookDisabledReason ?? "", /410/);

    const second = await emit(p.sub);
    await drain();
    assert.equal(hitsOf(p.id).length, 1, "nothing more is sent to a disabled endpoint");
    assert.equal(await eventState(second.eventId), "undeliverable");

    const cleared = await db.transaction((tx) => reenableEndpoint(tx, p.id, clock.now()));
    assert.equal(cleared.disabledAt, disabled.webhookDisabledAt!.toISOString());
    await assert.rejects(
      db.transaction((tx) => reenableEndpoint(tx, p.id, clock.now())),
      /not disabled/,
    );
    const third = await emit(p.sub);
    await drain();
    assert.equal(await eventState(third.eventId), "delivered");
    assert.equal(hitsOf(p.id).length, 2);
  });

  it("a new webhook URL is a new endpoint: the old one's 410 no longer disables it", async () => {
    const p = await newPartner();
    plans.set(p.id, (res) => res.writeHead(410).end());
    await emit(p.sub);
    await drain();
    assert.ok((await partnerRow(p.id)).webhookDisabledAt);
    await db.transaction((tx) => updatePartnerSettings(tx, p.id, { pricingMode: "SERVICE_PRICED" }, clock.now()));
    assert.ok((await partnerRow(p.id)).webhookDisabledAt, "other settings changes keep it disabled");
    await db.transaction((tx) => updatePartnerSettings(tx, p.id, { webhookUrl: `${baseUrl}/${p.id}?v=2` }, clock.now()));
    assert.equal((await partnerRow(p.id)).webhookDisabledAt, null);
  });
});
