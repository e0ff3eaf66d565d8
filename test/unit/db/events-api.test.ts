/**
 * The events API's domain (lib/partners/events/read.ts) and retention (lib/partners/events/purge.ts) on a real
 * database: sequence order and the `after` cursor, scoping, and the purge keeping 30 days and
 * every event still pending delivery.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { eq, inArray } from "drizzle-orm";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { events, partners, webhookAttempts } from "@/db/schema";
import { addSeconds } from "@/lib/platform/clock";
import { emitEvent } from "@/lib/partners/events/emit";
import { freshDbPair } from "../../support/db";
import { newSubscription, type Owner } from "../../support/fixtures";

let db: Db;
let db2: Db;
let close: () => Promise<void>;
let read: typeof import("@/lib/partners/events/read");
let purge: typeof import("@/lib/partners/events/purge");

before(async () => {
  ({ db, db2, close } = await freshDbPair());
  read = await import("@/lib/partners/events/read");
  purge = await import("@/lib/partners/events/purge");
});
after(() => close());

const emit = (d: Db, owner: Owner, n: number, now = new Date()) =>
  d.transaction((tx) =>
    emitEvent(tx, { subscriptionId: owner.subscriptionId, eventType: n % 2 ? "transfer.state.changed" : "beneficiary.state.changed", data: { n }, now }),
  );

describe("events API domain", () => {
  it("concurrent emitters of one subscription get distinct, gapless sequences; pages follow them with the after cursor", async () => {
    const owner = await newSubscription(db);
    // Two connections on PostgreSQL (one on PGlite): the counter row's lock serialises them.
    await Promise.all(Array.from({ length: 12 }, (_, i) => emit(i % 2 ? db : db2, owner, i)));
    const seen: number[] = [];
    let cursor: number | undefined;
    for (let page = 0; page < 10; page++) {
      const res = await read.listEvents(db, { subscriptionId: owner.subscriptionId, after: cursor, limit: 5 });
      seen.push(...res.items.map((e) => e.sequence as number));
      if (!res.nextCursor) break;
      cursor = Number(res.nextCursor);
    }
    assert.deepEqual(
      seen,
      Array.from({ length: 12 }, (_, i) => i + 1),
    );

    const onlyTransfers = await read.listEvents(db, { subscriptionId: owner.subscriptionId, types: ["transfer.state.changed"], limit: 50 });
    assert.equal(onlyTransfers.items.length, 6);
    assert.ok(onlyTransfers.items.every((e) => e.eventType === "transfer.state.changed"));
    assert.equal(onlyTransfers.nextCursor, null);
  });

  it("an item is the stored webhook body; another subscription's event is event.notFound", async () => {
    const owner = await newSubscription(db);
    const other = await newSubscription(db);
    const { eventId } = await emit(db, owner, 1);
    const [row] = await db.select().from(events).where(eq(events.id, eventId));
    assert.deepEqual(await read.readEvent(db, { subscriptionId: owner.subscriptionId, eventId }), row!.body);
    await assert.rejects(read.readEvent(db, { subscriptionId: other.subscriptionId, eventId }), (e: { code?: string }) => e.code === "event.notFound");
    assert.deepEqual((await read.listEvents(db, { subscriptionId: other.subscriptionId, limit: 50 })).items, []);
  });

  it("createdSince keeps events that occurred at or after it", async () => {
    const owner = await newSubscription(db);
    const t0 = new Date("2026-11-01T00:00:00.000Z");
    await emit(db, owner, 1, t0);
    await emit(db, owner, 2, addSeconds(t0, 60));
    const res = await read.listEvents(db, { subscriptionId: owner.subscriptionId, createdSince: addSeconds(t0, 60), limit: 50 });
    assert.deepEqual(
      res.items.map((e) => e.sequence),
      [2],
    );
  });
});

describe("event retention (maintenance.purge)", () => {
  it("drops settled events older than 30 days with their attempts; keeps younger ones and pending ones", async () => {
    const owner = await newSubscription(db);
    // An endpoint ready: its events are written pending delivery (none is run here).
    await db.update(partners).set({ webhookUrl: "https://partner.example/hooks", webhookSecret: "whsec_dGVzdA==" }).where(eq(partners.id, owner.partnerId));
    const now = new Date();
    const old = await emit(db, owner, 1, addSeconds(now, -31 * 86400));
    const oldPending = await emit(db, owner, 2, addSeconds(now, -31 * 86400));
    const young = await emit(db, owner, 3, addSeconds(now, -29 * 86400));
    await db
      .update(events)
      .set({ deliveryState: "delivered" })
      .where(inArray(events.id, [old.eventId, young.eventId]));
    await db.insert(webhookAttempts).values({
      id: newId("wha"),
      eventId: old.eventId,
      partnerId: owner.partnerId,
      url: "https://example.com/h",
      attemptedAt: now,
      statusCode: 200,
      latencyMs: 1,
    });

    await db.transaction((tx) => purge.purgeOldEvents(tx, now));

    const left = await db.select({ id: events.id }).from(events).where(eq(events.subscriptionId, owner.subscriptionId));
    assert.deepEqual(left.map((r) => r.id).sort(), [oldPending.eventId, young.eventId].sort());
    assert.deepEqual(await db.select().from(webhookAttempts).where(eq(webhookAttempts.eventId, old.eventId)), []);
  });
});
