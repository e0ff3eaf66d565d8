/** Console replay only where a delivery is possible: no URL or a disabled endpoint is refused. */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { customers, events, partners, subscriptions } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { DomainError } from "@/lib/platform/errors";
import { emitEvent } from "@/lib/partners/events/emit";
import { webhookEndpointState } from "@/lib/partners/webhooks/endpoint";
import { replayEvent, replayRange } from "@/lib/partners/webhooks/replay";
import { freshDb } from "../../support/db";

let db: Db;
let close: () => Promise<void>;
before(async () => ({ db, close } = await freshDb()));
after(async () => close());

async function partnerWithEvent() {
  const now = clock.now();
  const partnerId = newId("partner_test");
  const customerId = newId("cus");
  const subscriptionId = newId("sub");
  await db.insert(partners).values({ id: partnerId, name: "No hooks", webhookUrl: null, webhookSecret: "whsec_bm9zZWNyZXQ=", createdAt: now, updatedAt: now });
  await db.insert(customers).values({ id: customerId, createdAt: now, updatedAt: now });
  await db.insert(subscriptions).values({ id: subscriptionId, partnerId, customerId, createdAt: now, updatedAt: now });
  const { eventId } = await db.transaction((tx) => emitEvent(tx, { subscriptionId, eventType: "customer.status.changed", data: {}, now }));
  await db.update(events).set({ deliveryState: "undeliverable" }).where(eq(events.id, eventId));
  return { partnerId, eventId };
}

async function refused(run: () => Promise<unknown>, currentState: string) {
  await assert.rejects(run, (err: unknown) => {
    assert.ok(err instanceof DomainError);
    assert.equal(err.code, "webhookEndpoint.stateInvalid");
    assert.deepEqual(err.details, { currentState });
    return true;
  });
}

test("endpoint state: no URL or no secret, disabled, ready", () => {
  assert.equal(webhookEndpointState({ webhookUrl: null, webhookSecret: "s", webhookDisabledAt: null }), "noUrl");
  assert.equal(webhookEndpointState({ webhookUrl: "https://p.example/h", webhookSecret: null, webhookDisabledAt: null }), "noUrl");
  assert.equal(webhookEndpointState({ webhookUrl: "https://p.example/h", webhookSecret: "s", webhookDisabledAt: new Date() }), "disabled");
  assert.equal(webhookEndpointState({ webhookUrl: "https://p.example/h", webhookSecret: "s", webhookDisabledAt: null }), "ready");
});

test("replay is refused without a URL and while disabled, and queues the event once the endpoint is ready", async () => {
  const { partnerId, eventId } = await partnerWithEvent();
  const now = clock.now();
  await refused(() => db.transaction((tx) => replayEvent(tx, eventId, now)), "noUrl");
  await refused(() => db.transaction((tx) => replayRange(tx, partnerId, new Date(now.getTime() - 60_000), now, now)), "noUrl");

  await db.update(partners).set({ webhookUrl: "https://partner.example/hooks", webhookDisabledAt: now }).where(eq(partners.id, partnerId));
  await refused(() => db.transaction((tx) => replayEvent(tx, eventId, now)), "disabled");
  const [still] = await db.select().from(events).where(eq(events.id, eventId));
  assert.equal(still.deliveryState, "undeliverable", "a refused replay changes nothing");

  await db.update(partners).set({ webhookDisabledAt: null }).where(eq(partners.id, partnerId));
  await db.transaction((tx) => replayEvent(tx, eventId, now));
  const [queued] = await db.select().from(events).where(eq(events.id, eventId));
  assert.equal(queued.deliveryState, "pending");
});
