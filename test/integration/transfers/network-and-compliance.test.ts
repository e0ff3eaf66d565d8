/**
 * The sandbox payout network and compliance controls (spec 3.1; decisions 7) and the
 * transfer.state.changed webhooks (decisions 9): funded → topay → reqpay → paid with reason codes,
 * out-of-order steps refused, holds (spended) restored or rejected, and one event per state
 * change in sequence order.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { fundedScenario, fundingScenario, registeredScenario, validatedScenario } from "./support";
import {
  receivePartnerWebhooks,
  type Delivery,
  acceptTransfer,
  advance,
  advanceTo,
  assertError,
  assertIssue,
  call,
  cancel,
  completeFunding,
  confirmNow,
  eventually,
  hold,
  networkCancellation,
  readTransfer,
  reasons,
  release,
  states,
  validCustomer,
  POLL_MS,
} from "../support";

describe("payout network (sandbox advance)", () => {
  test("funded → topay → reqpay → paid, with TRF_NETWORK_TO_PAY, TRF_NETWORK_REQUEST_PAY, TRF_PAID", async () => {
    const s = await fundedScenario();
    const topay = await advance(s.c, s.transferId, "topay");
    assert.equal(topay.status, 200, topay.text);
    assert.equal(topay.body.transferStatus, "topay");
    assert.equal(topay.body.nextStep, "CONTINUE");
    assert.equal(topay.body.customerActionExpected, "WAIT");
    assert.equal("transferExpiresAt" in topay.body, false);
    await advanceTo(s.c, s.transferId, "reqpay", "paid");
    const t = (await readTransfer(s.c, s.transferId)).body;
    assert.equal(t.transferStatus, "paid");
    assert.equal(t.nextStep, null);
    assert.equal(t.customerActionExpected, "NONE");
    assert.deepEqual(reasons(t), [
      "TRF_INITIATION_QUOTE_ACCEPTED",
      "TRF_CHECK_PASSED",
      "TRF_AUTH_DEVICE_VERIFIED",
      "TRF_FUNDING_SUCCESS",
      "TRF_NETWORK_TO_PAY",
      "TRF_NETWORK_REQUEST_PAY",
      "TRF_PAID",
    ]);
    assert.deepEqual(states(t), ["registered", "validated", "funding", "funded", "topay", "reqpay", "paid"]);
    assert.equal(t.transferStateChangedAt, t.stateHistory.at(-1).transitionedAt);
  });

  test("out of order: funded → reqpay or paid, topay → topay, validated → topay, paid → anything: 409 transfer.stateInvalid", async () => {
    const s = await fundedScenario();
    assertError(await advance(s.c, s.transferId, "reqpay"), 409, "transfer.stateInvalid");
    assertError(await advance(s.c, s.transferId, "paid"), 409, "transfer.stateInvalid");
    await advanceTo(s.c, s.transferId, "topay");
    assertError(await advance(s.c, s.transferId, "topay"), 409, "transfer.stateInvalid");
    await advanceTo(s.c, s.transferId, "paid"); // topay → paid directly is a network outcome
    for (const to of ["topay", "reqpay", "paid"]) assertError(await advance(s.c, s.transferId, to), 409, "transfer.stateInvalid");
    assert.deepEqual(states((await readTransfer(s.c, s.transferId)).body).slice(-2), ["topay", "paid"]);

    const v = await validatedScenario();
    assertError(await advance(v.c, v.transferId, "topay"), 409, "transfer.stateInvalid");
    assert.equal((await readTransfer(v.c, v.transferId)).body.transferStatus, "validated");
  });

  test("an unknown target is 400; another customer's transfer is 404", async () => {
    const s = await registeredScenario();
    assertIssue(await advance(s.c, s.transferId, "funded"), "to", "validation.fieldInvalid");
    const intruder = await validCustomer();
    assertError(await advance(intruder, s.transferId, "topay"), 404, "transfer.notFound");
    assertError(await hold(intruder, s.transferId), 404, "transfer.notFound");
  });

  test("paid while a cancellation is pending answers it: NETWORK_ALREADY_PAID, not a paid transfer still pending cancellation", async () => {
    const s = await fundedScenario();
    await advanceTo(s.c, s.transferId, "topay");
    assert.equal((await cancel(s.c, s.transferId)).status, 202);
    await advanceTo(s.c, s.transferId, "reqpay");
    assert.equal((await readTransfer(s.c, s.transferId)).body.cancellation.cancellationOutcome, "NETWORK_CANCELLATION_PENDING");
    await advanceTo(s.c, s.transferId, "paid");
    const t = (await readTransfer(s.c, s.transferId)).body;
    assert.equal(t.transferStatus, "paid");
    assert.equal(t.cancellation.cancellationOutcome, "NETWORK_ALREADY_PAID");
    assert.equal(t.refund, null);
    assert.equal(t.stateHistory.at(-1).reasonCode, "TRF_CANCEL_NETWORK_ALREADY_PAID");
    assertError(await networkCancellation(s.c, s.transferId, "NETWORK_CANCELLATION_SUCCESS"), 409, "transfer.stateInvalid");
  });
});

describe("sandbox simulation calls are idempotent (issue 20 item 6)", () => {
  test("funding-complete, advance and network-cancellation retried with the same Idempotency-Key answer the original response", async () => {
    const s = await fundingScenario();
    const post = (path: string, body: unknown, key: string) => call("POST", path, { token: s.c.token, body, idempotencyKey: key });
    const calls: [string, unknown, string][] = [
      [`/v1/sandbox/funding-sessions/${s.confirmed.fundingSession.fundingSessionId}/complete`, { outcome: "SUCCEEDED" }, "funding.sessionStateInvalid"],
      [`/v1/sandbox/transfers/${s.transferId}/advance`, { to: "topay" }, "transfer.stateInvalid"],
    ];
    for (const [path, body, refusal] of calls) {
      const key = randomUUID();
      const first = await post(path, body, key);
      assert.equal(first.status, 200, first.text);
      // The first answer was lost: the retry must not run the move again (409 before) but answer it.
      const retry = await post(path, body, key);
      assert.equal(retry.status, 200, `${path}: ${retry.text}`);
      assert.equal(retry.text, first.text);
      assert.equal(retry.headers.get("idempotent-replayed"), "true");
      // Another body under the key is a conflict; without a key the call runs (and is refused now).
      assertError(await post(path, { ...(body as object), extra: 1 }, key), 409, "idempotency.conflict");
      assertError(await call("POST", path, { token: s.c.token, body }), 409, refusal);
    }
    assert.equal((await cancel(s.c, s.transferId)).status, 202);
    const key = randomUUID();
    const path = `/v1/sandbox/transfers/${s.transferId}/network-cancellation`;
    const first = await post(path, { outcome: "NETWORK_CANCELLATION_SUCCESS" }, key);
    assert.equal(first.status, 200, first.text);
    const retry = await post(path, { outcome: "NETWORK_CANCELLATION_SUCCESS" }, key);
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.text, first.text);
    assert.equal(retry.body.transferStatus, "canceled");
  });
});

describe("compliance holds", () => {
  test("hold from validated → spended; a second hold changes nothing; RESTORE → validated with a fresh challenge", async () => {
    const s = await validatedScenario();
    const held = await hold(s.c, s.transferId);
    assert.equal(held.status, 200, held.text);
    assert.equal(held.body.transferStatus, "spended");
    let t = (await readTransfer(s.c, s.transferId)).body;
    assert.equal(t.transferStatus, "spended");
    assert.equal(t.stateHistory.at(-1).reasonCode, "TRF_COMPLIANCE_HOLD");
    assert.equal("confirmationChallenge" in t, false);
    assert.equal(t.customerActionExpected, "WAIT");
    assert.notEqual(t.nextStep, null);

    const again = await hold(s.c, s.transferId);
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.transferStatus, "spended");
    assert.equal(again.body.stateHistory.length, t.stateHistory.length, "a second hold is not a state change");

    const restored = await release(s.c, s.transferId, "RESTORE");
    assert.equal(restored.status, 200, restored.text);
    assert.equal(restored.body.transferStatus, "validated");
    t = (await readTransfer(s.c, s.transferId)).body;
    assert.equal(t.transferStatus, "validated");
    assert.deepEqual(states(t), ["registered", "validated", "spended", "validated"]);
    assert.equal(t.stateHistory.at(-1).reasonCode, "TRF_COMPLIANCE_RESTORED");
    assert.equal(typeof t.confirmationChallenge, "string");
    assert.ok(t.transferExpiresAt);
    // Nothing held any more.
    assertError(await release(s.c, s.transferId, "RESTORE"), 409, "transfer.stateInvalid");
  });

  test("hold then REJECT → rejected, as the customer sees it", async () => {
    const s = await validatedScenario();
    assert.equal((await hold(s.c, s.transferId)).status, 200);
    const rejected = await release(s.c, s.transferId, "REJECT");
    assert.equal(rejected.status, 200, rejected.text);
    const t = (await readTransfer(s.c, s.transferId)).body;
    assert.equal(t.transferStatus, "rejected");
    assert.equal(t.stateHistory.at(-1).reasonCode, "TRF_COMPLIANCE_REJECTED");
    assert.equal(t.nextStep, null);
    assert.equal(t.customerActionExpected, "NONE");
    assert.equal("transferExpiresAt" in t, false);
    assertError(await cancel(s.c, s.transferId), 409, "transfer.stateInvalid");
  });

  test("hold of a funded transfer then REJECT → rejected with its refund started (the money is owed back)", async () => {
    const s = await fundedScenario();
    assert.equal((await hold(s.c, s.transferId)).status, 200);
    const rejected = await release(s.c, s.transferId, "REJECT");
    assert.equal(rejected.status, 200, rejected.text);
    const t = (await readTransfer(s.c, s.transferId)).body;
    assert.equal(t.transferStatus, "rejected");
    assert.deepEqual(states(t).slice(-3), ["funded", "spended", "rejected"]);
    assert.equal(t.refund?.refundMethod, "ORIGINAL_PAYMENT_METHOD", JSON.stringify(t));
  });

  test("hold of a terminal transfer, or release without a hold: 409 transfer.stateInvalid", async () => {
    const s = await registeredScenario();
    assert.equal((await cancel(s.c, s.transferId)).status, 200);
    assertError(await hold(s.c, s.transferId), 409, "transfer.stateInvalid");
    const r = await registeredScenario();
    assertError(await release(r.c, r.transferId, "RESTORE"), 409, "transfer.stateInvalid");
    assertError(await release(r.c, r.transferId, "REJECT"), 409, "transfer.stateInvalid");
    assert.equal((await readTransfer(r.c, r.transferId)).body.transferStatus, "registered");
  });

  test("held in topay: the network pauses (advance 409); RESTORE → topay and it moves on", async () => {
    const s = await fundedScenario();
    await advanceTo(s.c, s.transferId, "topay");
    assert.equal((await hold(s.c, s.transferId)).status, 200);
    assertError(await advance(s.c, s.transferId, "reqpay"), 409, "transfer.stateInvalid");
    assertError(await advance(s.c, s.transferId, "paid"), 409, "transfer.stateInvalid");
    const restored = await release(s.c, s.transferId, "RESTORE");
    assert.equal(restored.body.transferStatus, "topay");
    await advanceTo(s.c, s.transferId, "reqpay", "paid");
  });

  test("held while funding: the session closes; RESTORE returns to validated (no session to pay), and a new confirm opens a new one", async () => {
    const s = await fundingScenario();
    assert.equal((await hold(s.c, s.transferId)).status, 200);
    assertError(await completeFunding(s.c, s.confirmed.fundingSession.fundingSessionId), 410, "funding.sessionExpired");
    const restored = await release(s.c, s.transferId, "RESTORE");
    assert.equal(restored.status, 200, restored.text);
    assert.equal(restored.body.transferStatus, "validated", restored.text);
    const t = (await readTransfer(s.c, s.transferId)).body;
    assert.deepEqual(states(t).slice(-3), ["spended", "funding", "validated"]);
    assert.equal(t.stateHistory.at(-1).reasonCode, "TRF_FUNDING_SESSION_EXPIRED");
    const again = await confirmNow({ customer: s.c, device: s.device }, s.transferId);
    assert.notEqual(again.fundingSession.fundingSessionId, s.confirmed.fundingSession.fundingSessionId);
    const done = await completeFunding(s.c, again.fundingSession.fundingSessionId);
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.transferStatus, "funded");
  });
});

describe("transfer.state.changed webhooks", () => {
  const deliveries: Delivery[] = [];
  let webhooks: Awaited<ReturnType<typeof receivePartnerWebhooks>>;

  before(async () => {
    webhooks = await receivePartnerWebhooks(deliveries);
  });

  after(() => webhooks.close());

  const transferEvents = (subscriptionId: string) =>
    deliveries.filter((d) => d.body?.eventType === "transfer.state.changed" && d.body?.subscriptionId === subscriptionId);

  test("every state change of a journey to paid (and nothing else) produces one event, in sequence order", async () => {
    const s = await fundedScenario();
    await advanceTo(s.c, s.transferId, "topay");
    // A pending network cancellation is not a state change: no event.
    assert.equal((await cancel(s.c, s.transferId)).status, 202);
    await advanceTo(s.c, s.transferId, "reqpay");
    assert.equal((await networkCancellation(s.c, s.transferId, "NETWORK_IN_PROGRESS_RETRY_ALLOWED")).status, 200);
    await advanceTo(s.c, s.transferId, "paid");
    const t = (await readTransfer(s.c, s.transferId)).body;

    // Barrier: events of a subscription go out in sequence order, so once a later transfer's
    // first event has arrived, every event of this journey has.
    const barrier = await acceptTransfer(s.c, s.beneficiaryId);
    await eventually(async () => transferEvents(s.c.subscriptionId).some((d) => d.body.data.transferId === barrier.transferId), POLL_MS, "the barrier event");

    const mine = transferEvents(s.c.subscriptionId).filter((d) => d.body.data.transferId === s.transferId);
    const events = mine.map((d) => d.body);
    assert.deepEqual(
      events.map((e) => e.sequence),
      [...events.map((e) => e.sequence)].sort((a, b) => a - b),
      "delivered in sequence order",
    );
    assert.equal(new Set(events.map((e) => e.eventId)).size, events.length, "each event once");
    assert.deepEqual(
      events.map((e) => [e.data.previousState, e.data.state, e.data.reasonCode]),
      t.stateHistory.map((h: any, i: number) => [i === 0 ? null : t.stateHistory[i - 1].state, h.state, h.reasonCode]),
    );
    for (const e of events) {
      assert.deepEqual(Object.keys(e).sort(), ["data", "eventId", "eventType", "occurredAt", "sequence", "subscriptionId"]);
      assert.deepEqual(Object.keys(e.data).sort(), ["previousState", "reasonCode", "state", "transferId"]);
    }
    assert.deepEqual(
      events.map((e) => e.occurredAt),
      t.stateHistory.map((h: any) => h.transitionedAt),
    );
    // Signed with the partner's secret (Standard Webhooks).
    for (const d of mine) {
      const verified = new Webhook(webhooks.secret).verify(d.rawBody, {
        "webhook-id": String(d.headers["webhook-id"]),
        "webhook-timestamp": String(d.headers["webhook-timestamp"]),
        "webhook-signature": String(d.headers["webhook-signature"]),
      });
      assert.deepEqual(verified, d.body);
    }
    // No event carries the destination identifier or the payout method.
    for (const d of mine) assert.ok(!/destinationIdentifier|payoutMethod/.test(d.rawBody), d.rawBody);
  });

  test("hold, restore, cancel (aborted): hold/restore/abort events in order", async () => {
    const s = await validatedScenario();
    assert.equal((await hold(s.c, s.transferId)).status, 200);
    assert.equal((await release(s.c, s.transferId, "RESTORE")).status, 200);
    assert.equal((await cancel(s.c, s.transferId)).status, 200);
    const barrier = await acceptTransfer(s.c, s.beneficiaryId);
    await eventually(async () => transferEvents(s.c.subscriptionId).some((d) => d.body.data.transferId === barrier.transferId), POLL_MS, "the barrier event");
    const events = transferEvents(s.c.subscriptionId)
      .filter((d) => d.body.data.transferId === s.transferId)
      .map((d) => d.body);
    assert.deepEqual(
      events.map((e) => [e.data.previousState, e.data.state, e.data.reasonCode]),
      [
        [null, "registered", "TRF_INITIATION_QUOTE_ACCEPTED"],
        ["registered", "validated", "TRF_CHECK_PASSED"],
        ["validated", "spended", "TRF_COMPLIANCE_HOLD"],
        ["spended", "validated", "TRF_COMPLIANCE_RESTORED"],
        ["validated", "aborted", "TRF_CANCEL_ABORTED_PRE_FUNDING"],
      ],
    );
    const seqs = events.map((e) => e.sequence);
    assert.deepEqual(
      seqs,
      [...seqs].sort((a, b) => a - b),
    );
  });
});
