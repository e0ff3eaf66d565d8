/**
 * The events API: a partner whose webhook endpoint failed every delivery
 * rebuilds its customer's transfer states from GET /v1/core/events alone, in sequence order, and
 * the events are exactly the webhook bodies, scoped to the subscription.
 */
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { fundedScenario, registeredScenario } from "../transfers/support";
import {
  acceptTransfer,
  advanceTo,
  assertError,
  call,
  cancel,
  eventually,
  putPartner,
  transferDetail,
  useServicePricing,
  validCustomer,
  type Customer,
} from "../support";

let attempts: { body: any }[] = [];
let closeEndpoint: () => Promise<void>;
let previousUrl: string | null;

// The partner's endpoint is down: every delivery answers 500, so every webhook is missed.
before(async () => {
  await useServicePricing();
  attempts = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      attempts.push({ body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      res.writeHead(500).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  previousUrl = (await putPartner({})).webhookUrl;
  await putPartner({ webhookUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/down` });
  closeEndpoint = async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  };
});
after(async () => {
  await putPartner({ webhookUrl: previousUrl });
  await closeEndpoint();
});

const listEvents = (c: Customer, query = "") => call("GET", `/v1/core/events${query}`, { token: c.token });

/** Every event of the customer through the API, page by page with the after cursor. */
async function allEvents(c: Customer, query: string, limit: number): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const res = await listEvents(c, `?limit=${limit}${query}${cursor ? `&after=${cursor}` : ""}`);
    assert.equal(res.status, 200, res.text);
    assert.ok(res.body.items.length <= limit);
    out.push(...res.body.items);
    cursor = res.body.nextCursor;
    if (!cursor) return out;
  }
  throw new Error("too many pages");
}

describe("events API", () => {
  test("after missed webhooks, the transfer states are rebuilt from the events alone, in sequence order", async () => {
    const paid = await fundedScenario({ fresh: true });
    const c = paid.c;
    await advanceTo(c, paid.transferId, "topay", "reqpay", "paid");
    const canceled = await acceptTransfer(c, paid.beneficiaryId);
    const cancelRes = await cancel(c, canceled.transferId);
    assert.equal(cancelRes.status, 200, cancelRes.text);
    const second = (await registeredScenario({ fresh: true })).c;

    // The endpoint was tried and failed: these webhooks were missed.
    await eventually(() => Promise.resolve(attempts.some((a) => a.body.subscriptionId === c.subscriptionId)), 15_000, "a failed delivery");

    // Rebuild from the events API, two at a time, transfer events only.
    const transferEvents = await allEvents(c, "&type=transfer.state.changed", 2);
    const rebuilt = new Map<string, string[]>();
    let lastSequence = 0;
    for (const e of transferEvents) {
      assert.equal(e.eventType, "transfer.state.changed");
      assert.equal(e.subscriptionId, c.subscriptionId);
      assert.ok(e.sequence > lastSequence, `sequence order: ${e.sequence} after ${lastSequence}`);
      lastSequence = e.sequence;
      const history = rebuilt.get(e.data.transferId) ?? [];
      assert.equal(e.data.previousState, history.at(-1) ?? null, "each event follows the previous state");
      rebuilt.set(e.data.transferId, [...history, e.data.state]);
    }
    assert.equal(rebuilt.size, 2);
    for (const [transferId, states] of rebuilt) {
      const t = await transferDetail(c, transferId);
      assert.equal(states.at(-1), t.transferStatus);
      assert.deepEqual(
        states,
        t.stateHistory.map((h: { state: string }) => h.state),
      );
    }
    assert.deepEqual(rebuilt.get(paid.transferId), ["registered", "validated", "funding", "funded", "topay", "reqpay", "paid"]);
    assert.deepEqual(rebuilt.get(canceled.transferId), ["registered", "aborted"]);

    // All of the customer's events: gapless sequence 1..n; each is exactly its webhook body and readable by id.
    const everything = await allEvents(c, "", 3);
    assert.deepEqual(
      everything.map((e) => e.sequence),
      everything.map((_, i) => i + 1),
    );
    assert.ok(everything.some((e) => e.eventType === "customer.status.changed"));
    assert.ok(everything.some((e) => e.eventType === "beneficiary.state.changed"));
    for (const e of everything) assert.deepEqual(Object.keys(e).sort(), ["data", "eventId", "eventType", "occurredAt", "sequence", "subscriptionId"]);
    const delivered = attempts.find((a) => a.body.subscriptionId === c.subscriptionId)!.body;
    const one = await call("GET", `/v1/core/events/${delivered.eventId}`, { token: c.token });
    assert.equal(one.status, 200, one.text);
    assert.deepEqual(one.body, delivered);

    // Resuming after the last sequence processed gives nothing new; createdSince in the future neither.
    assert.deepEqual((await listEvents(c, `?after=${everything.at(-1).sequence}`)).body, { items: [], nextCursor: null });
    assert.deepEqual((await listEvents(c, `?createdSince=2999-01-01T00:00:00Z`)).body.items, []);

    // Scoped: another customer sees none of these and reads this event as 404.
    assertError(await call("GET", `/v1/core/events/${delivered.eventId}`, { token: second.token }), 404, "event.notFound");
    const theirs = await allEvents(second, "", 50);
    assert.ok(theirs.every((e) => e.subscriptionId === second.subscriptionId));
    assert.ok(!theirs.some((e) => e.eventId === delivered.eventId));
  });

  test("bad filters are 400 with the field named; no token is 401", async () => {
    const c = await validCustomer();
    for (const [query, field] of [
      ["?after=abc", "query.after"],
      ["?type=transfer.created", "query.type"],
      ["?limit=201", "query.limit"],
      ["?createdSince=yesterday", "query.createdSince"],
    ]) {
      const res = await listEvents(c, query);
      assert.equal(res.status, 400, `${query}: ${res.text}`);
      assert.ok(
        res.body.error.details.issues.some((i: { field: string }) => i.field === field),
        res.text,
      );
    }
    assert.equal((await call("GET", "/v1/core/events")).status, 401);
  });
});
