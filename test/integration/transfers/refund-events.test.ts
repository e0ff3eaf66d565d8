/**
 * Refund completion reaches the partner: a refund has its own machine, and its
 * COMPLETED is a refund.completed event, delivered as a signed webhook and listed by the events
 * API, once per refund; a network cancellation's answer moves only the request it answers. Driven
 * through the API and the sandbox controls that drive refunds today (cancel, the sandbox network's
 * answer, the sandbox refund provider's steps). refund.failed is reached only by an operator's
 * record in the console: test/unit/db/refunds-operator.test.ts drives it on both databases.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { fundedScenario } from "./support";
import { advanceTo, call, cancel, eventually, networkCancellation, readTransfer, receivePartnerWebhooks, type Delivery, POLL_MS } from "../support";

const deliveries: Delivery[] = [];
let webhooks: Awaited<ReturnType<typeof receivePartnerWebhooks>>;

before(async () => {
  webhooks = await receivePartnerWebhooks(deliveries);
});
after(() => webhooks.close());

const refundDeliveries = (transferId: string) => deliveries.filter((d) => d.body?.eventType?.startsWith("refund.") && d.body?.data?.transferId === transferId);

/** Waits for the refund.completed webhook of the transfer, then a quiet second (no duplicate, no refund.failed). */
async function awaitRefundCompletedWebhook(transferId: string): Promise<Delivery> {
  await eventually(
    () => Promise.resolve(refundDeliveries(transferId).some((d) => d.body.eventType === "refund.completed")),
    POLL_MS,
    `refund.completed webhook of ${transferId}`,
  );
  await new Promise((r) => setTimeout(r, 1000));
  const all = refundDeliveries(transferId);
  assert.deepEqual(
    all.map((d) => d.body.eventType),
    ["refund.completed"],
    "one refund.completed, nothing else",
  );
  return all[0];
}

async function checkEvent(c: { token: string }, transferId: string, delivery: Delivery) {
  const body = delivery.body;
  assert.deepEqual(Object.keys(body).sort(), ["data", "eventId", "eventType", "occurredAt", "sequence", "subscriptionId"]);
  assert.deepEqual(Object.keys(body.data).sort(), ["refundCompletedAt", "refundMethod", "refundStatus", "transferId"]);
  assert.equal(body.data.refundStatus, "COMPLETED");
  assert.equal(body.data.refundMethod, "ORIGINAL_PAYMENT_METHOD");
  assert.ok(!Number.isNaN(Date.parse(body.data.refundCompletedAt)), body.data.refundCompletedAt);
  // Signed like every webhook (Standard Webhooks, the partner's secret).
  new Webhook(webhooks.secret).verify(delivery.rawBody, {
    "webhook-id": String(delivery.headers["webhook-id"]),
    "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
    "webhook-signature": String(delivery.headers["webhook-signature"]),
  });
  assert.equal(delivery.headers["webhook-id"], body.eventId);
  // The events API lists exactly the body delivered.
  const listed = await call("GET", "/v1/core/events?type=refund.completed,refund.failed", { token: c.token });
  assert.equal(listed.status, 200, listed.text);
  const mine = listed.body.items.filter((e: any) => e.data.transferId === transferId);
  assert.deepEqual(mine, [body]);
  // The transfer detail agrees.
  const read = await readTransfer(c, transferId);
  assert.equal(read.body.refund.refundStatus, "COMPLETED");
}

describe("refund.completed", () => {
  test("cancel of a funded transfer: the refund completes (sandbox provider) and the partner gets one signed refund.completed", async () => {
    const s = await fundedScenario();
    const res = await cancel(s.c, s.transferId);
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.refund.refundStatus, "PENDING");
    const delivery = await awaitRefundCompletedWebhook(s.transferId);
    await checkEvent(s.c, s.transferId, delivery);
  });

  test("a network cancellation answered NETWORK_CANCELLATION_SUCCESS: the request is answered once, the refund completes with its event", async () => {
    const s = await fundedScenario();
    await advanceTo(s.c, s.transferId, "topay");
    assert.equal((await cancel(s.c, s.transferId)).status, 202);
    const pending = (await readTransfer(s.c, s.transferId)).body.cancellation;
    assert.equal(pending.cancellationOutcome, "NETWORK_CANCELLATION_PENDING");
    assert.equal(pending.canceledAt, null);
    const answered = await networkCancellation(s.c, s.transferId, "NETWORK_CANCELLATION_SUCCESS");
    assert.equal(answered.status, 200, answered.text);
    assert.equal(answered.body.cancellation.cancellationOutcome, "NETWORK_CANCELLATION_SUCCESS");
    assert.ok(answered.body.cancellation.canceledAt);
    assert.equal(answered.body.cancellation.networkCancellationExpectedBy, pending.networkCancellationExpectedBy);
    // The request is no longer pending: a second answer is refused like before.
    const again = await networkCancellation(s.c, s.transferId, "NETWORK_ALREADY_PAID");
    assert.equal(again.status, 409, again.text);
    const delivery = await awaitRefundCompletedWebhook(s.transferId);
    await checkEvent(s.c, s.transferId, delivery);
  });

  test("NETWORK_ALREADY_PAID: paid, no refund and no refund event", async () => {
    const s = await fundedScenario();
    await advanceTo(s.c, s.transferId, "topay", "reqpay");
    assert.equal((await cancel(s.c, s.transferId)).status, 202);
    const answered = await networkCancellation(s.c, s.transferId, "NETWORK_ALREADY_PAID");
    assert.equal(answered.status, 200, answered.text);
    assert.equal(answered.body.transferStatus, "paid");
    assert.equal(answered.body.cancellation.cancellationOutcome, "NETWORK_ALREADY_PAID");
    assert.equal(answered.body.refund, null);
    await new Promise((r) => setTimeout(r, 2500));
    assert.deepEqual(refundDeliveries(s.transferId), []);
  });
});
