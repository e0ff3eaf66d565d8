/**
 * POST /v1/core/transfers/{id}/cancel (spec 2.7, 3.1, 4.1 rule 10; decisions 7): aborted before
 * funding (200), canceled with a refund when funded (202), a network cancellation in topay and
 * reqpay (202, resolved through the sandbox network), from spended by the prior state, 409 when
 * no longer cancellable, idempotent replay, and a cancel racing the funding provider.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { fundedScenario, fundingScenario, registeredScenario, validatedScenario } from "./support";
import {
  acceptTransfer,
  advance,
  advanceTo,
  assertError,
  assertIssue,
  assertWithin,
  awaitFastCheck,
  cancel,
  completeFunding,
  eventually,
  hold,
  networkCancellation,
  readTransfer,
  reasons,
  serverNow,
  states,
  submit,
  timed,
  submitBody,
  validCustomer,
  POLL_MS,
} from "../support";

const CANCEL_KEYS = ["canceledAt", "cancellationOutcome", "customerActionExpected", "nextStep", "refund", "transferId", "transferStatus"];

function assertRefundStarted(refund: any, now: Date) {
  assert.ok(refund, "refund missing");
  assert.deepEqual(
    Object.keys(refund).sort(),
    ["estimatedRefundCompletionBy", "refundAmount", "refundCurrency", "refundMethod", "refundStatus"],
    JSON.stringify(refund),
  );
  assert.equal(refund.refundStatus, "PENDING");
  assert.equal(refund.refundMethod, "ORIGINAL_PAYMENT_METHOD");
  assert.ok(Date.parse(refund.estimatedRefundCompletionBy) > now.getTime() - 5_000, JSON.stringify(refund));
}

/** Polls the refund to COMPLETED, recording every status seen; asserts the order PENDING → PROCESSING → COMPLETED. */
async function awaitRefundCompleted(c: any, transferId: string) {
  const seen: string[] = [];
  const t = await eventually(
    async () => {
      const read = await readTransfer(c, transferId);
      assert.equal(read.status, 200, read.text);
      const status = read.body.refund?.refundStatus;
      if (status && seen.at(-1) !== status) seen.push(status);
      return status === "COMPLETED" ? read.body : undefined;
    },
    POLL_MS,
    `refund of ${transferId} COMPLETED`,
  );
  const order = ["PENDING", "PROCESSING", "COMPLETED"];
  assert.deepEqual(seen, order.slice(order.indexOf(seen[0])), `refund statuses out of order: ${seen}`);
  assert.ok(seen.includes("PROCESSING"), `PROCESSING was never observed: ${seen}`);
  assert.deepEqual(
    Object.keys(t.refund).sort(),
    ["estimatedRefundCompletionBy", "refundAmount", "refundCurrency", "refundMethod", "refundStatus"],
    JSON.stringify(t.refund),
  );
  return t;
}

describe("cancel before funding: 200 aborted", () => {
  test("registered → 200 {aborted, ABORTED_PRE_FUNDING, canceledAt, nextStep null, NONE, refund null}", async () => {
    const s = await registeredScenario();
    const { result: res, before, after } = await timed(() => cancel(s.c, s.transferId));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), CANCEL_KEYS);
    assert.equal(res.body.transferId, s.transferId);
    assert.equal(res.body.transferStatus, "aborted");
    assert.equal(res.body.cancellationOutcome, "ABORTED_PRE_FUNDING");
    assertWithin(res.body.canceledAt, before, after, 0, "canceledAt");
    assert.equal(res.body.nextStep, null);
    assert.equal(res.body.customerActionExpected, "NONE");
    assert.equal(res.body.refund, null);

    const read = (await readTransfer(s.c, s.transferId)).body;
    assert.equal(read.transferStatus, "aborted");
    assert.deepEqual(reasons(read), ["TRF_INITIATION_QUOTE_ACCEPTED", "TRF_CANCEL_ABORTED_PRE_FUNDING"]);
    assert.deepEqual(read.cancellation, {
      cancellationOutcome: "ABORTED_PRE_FUNDING",
      cancellationReason: "CUSTOMER_REQUEST",
      cancelRequestedAt: res.body.canceledAt,
      canceledAt: res.body.canceledAt,
    });
    assert.equal(read.refund, null);
    // An aborted transfer can no longer be submitted.
    assertError(await submit(s.c, s.transferId, submitBody(s.beneficiaryId)), 409, "transfer.stateInvalid");
  });

  test("registered after submit (fast-check pending): aborted, and the late fast-check changes nothing", async () => {
    const s = await registeredScenario();
    assert.equal((await submit(s.c, s.transferId, submitBody(s.beneficiaryId))).status, 202);
    const res = await cancel(s.c, s.transferId);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.transferStatus, "aborted");
    // Barrier: a transfer submitted afterwards has passed its fast-check, so this one's ran too.
    const sentinel = await acceptTransfer(s.c, s.beneficiaryId);
    assert.equal((await submit(s.c, sentinel.transferId, submitBody(s.beneficiaryId))).status, 202);
    assert.equal((await awaitFastCheck(s.c, sentinel.transferId)).transferStatus, "validated");
    const after = (await readTransfer(s.c, s.transferId)).body;
    assert.equal(after.transferStatus, "aborted");
    assert.deepEqual(states(after), ["registered", "aborted"]);
  });

  test("onreview and validated → 200 aborted", async () => {
    const r = await registeredScenario({ originAmount: "1000.000000" });
    assert.equal((await submit(r.c, r.transferId, submitBody(r.beneficiaryId))).status, 202);
    assert.equal((await awaitFastCheck(r.c, r.transferId)).transferStatus, "onreview");
    const onreview = await cancel(r.c, r.transferId);
    assert.equal(onreview.status, 200, onreview.text);
    assert.equal(onreview.body.cancellationOutcome, "ABORTED_PRE_FUNDING");

    const v = await validatedScenario();
    const validated = await cancel(v.c, v.transferId);
    assert.equal(validated.status, 200, validated.text);
    assert.equal(validated.body.transferStatus, "aborted");
    const read = (await readTransfer(v.c, v.transferId)).body;
    assert.equal("confirmationChallenge" in read, false);
  });

  test("funding → 200 aborted; the funding session is closed (sandbox completion refused, no funded)", async () => {
    const s = await fundingScenario();
    const res = await cancel(s.c, s.transferId);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.transferStatus, "aborted");
    assert.equal(res.body.refund, null);
    const late = await completeFunding(s.c, s.confirmed.fundingSession.fundingSessionId);
    assertError(late, 410, "funding.sessionExpired");
    const read = (await readTransfer(s.c, s.transferId)).body;
    assert.equal(read.transferStatus, "aborted");
    assert.equal("fundingSession" in read, false);
    assert.ok(!states(read).includes("funded"));
  });
});

describe("cancel after funding", () => {
  test("funded → 202 canceled, CANCELED_PRE_NETWORK, refund PENDING → PROCESSING → COMPLETED", async () => {
    const s = await fundedScenario();
    const { result: res, before, after } = await timed(() => cancel(s.c, s.transferId));
    const now = new Date(before);
    assert.equal(res.status, 202, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), CANCEL_KEYS);
    assert.equal(res.body.transferStatus, "canceled");
    assert.equal(res.body.cancellationOutcome, "CANCELED_PRE_NETWORK");
    assertWithin(res.body.canceledAt, before, after, 0, "canceledAt");
    assert.equal(res.body.nextStep, null);
    assert.equal(res.body.customerActionExpected, "NONE");
    assertRefundStarted(res.body.refund, now);

    const t = await awaitRefundCompleted(s.c, s.transferId);
    assert.equal(t.transferStatus, "canceled");
    assert.equal(t.refund.refundMethod, "ORIGINAL_PAYMENT_METHOD");
    assert.equal(t.refund.estimatedRefundCompletionBy, res.body.refund.estimatedRefundCompletionBy);
    assert.equal(t.cancellation.cancellationOutcome, "CANCELED_PRE_NETWORK");
    assert.equal(t.stateHistory.at(-1).reasonCode, "TRF_CANCEL_PRE_NETWORK");
    assert.deepEqual(states(t), ["registered", "validated", "funding", "funded", "canceled"]);
    // The network can no longer move it.
    assertError(await advance(s.c, s.transferId, "topay"), 409, "transfer.stateInvalid");
  });

  test("topay → 202 NETWORK_CANCELLATION_PENDING (state unchanged, canceledAt null, 60 s hint); a second cancel while pending is 409; SUCCESS → canceled with refund", async () => {
    const s = await fundedScenario();
    await advanceTo(s.c, s.transferId, "topay");
    const { result: res, before, after } = await timed(() => cancel(s.c, s.transferId));
    assert.equal(res.status, 202, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), [...CANCEL_KEYS, "networkCancellationExpectedBy"].sort());
    assert.equal(res.body.transferStatus, "topay");
    assert.equal(res.body.cancellationOutcome, "NETWORK_CANCELLATION_PENDING");
    assert.equal(res.body.canceledAt, null);
    assertWithin(res.body.networkCancellationExpectedBy, before, after, 60_000, "networkCancellationExpectedBy");
    assert.notEqual(res.body.nextStep, null, "not terminal: nextStep is not null");
    assert.notEqual(res.body.customerActionExpected, "NONE");
    assert.equal(res.body.refund, null);

    let read = (await readTransfer(s.c, s.transferId)).body;
    assert.equal(read.transferStatus, "topay");
    assert.equal(read.cancellation.cancellationOutcome, "NETWORK_CANCELLATION_PENDING");
    assert.equal(read.cancellation.canceledAt, null);
    assert.equal(read.cancellation.networkCancellationExpectedBy, res.body.networkCancellationExpectedBy);
    assert.equal(read.refund, null);
    assert.equal(read.stateHistory.at(-1).state, "topay", "a pending cancellation is not a state change");

    assertError(await cancel(s.c, s.transferId), 409, "transfer.stateInvalid");

    const resolved = await networkCancellation(s.c, s.transferId, "NETWORK_CANCELLATION_SUCCESS");
    assert.equal(resolved.status, 200, resolved.text);
    read = (await readTransfer(s.c, s.transferId)).body;
    assert.equal(read.transferStatus, "canceled");
    assert.equal(read.cancellation.cancellationOutcome, "NETWORK_CANCELLATION_SUCCESS");
    assert.ok(read.cancellation.canceledAt);
    assert.equal(read.stateHistory.at(-1).reasonCode, "TRF_CANCEL_NETWORK_SUCCESS");
    assert.equal(read.nextStep, null);
    assert.equal(read.customerActionExpected, "NONE");
    assert.equal(read.refund.refundMethod, "ORIGINAL_PAYMENT_METHOD");
    await awaitRefundCompleted(s.c, s.transferId);
    // Nothing pending any more.
    assertError(await networkCancellation(s.c, s.transferId, "NETWORK_CANCELLATION_SUCCESS"), 409, "transfer.stateInvalid");
  });

  test("reqpay → pending; NETWORK_ALREADY_PAID → paid, no refund", async () => {
    const s = await fundedScenario();
    await advanceTo(s.c, s.transferId, "topay", "reqpay");
    const res = await cancel(s.c, s.transferId);
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.transferStatus, "reqpay");
    assert.equal(res.body.cancellationOutcome, "NETWORK_CANCELLATION_PENDING");
    const resolved = await networkCancellation(s.c, s.transferId, "NETWORK_ALREADY_PAID");
    assert.equal(resolved.status, 200, resolved.text);
    const read = (await readTransfer(s.c, s.transferId)).body;
    assert.equal(read.transferStatus, "paid");
    assert.equal(read.cancellation.cancellationOutcome, "NETWORK_ALREADY_PAID");
    assert.equal(read.cancellation.canceledAt, null);
    assert.equal(read.refund, null);
    assert.equal(read.stateHistory.at(-1).reasonCode, "TRF_CANCEL_NETWORK_ALREADY_PAID");
    assert.equal(read.nextStep, null);
    assertError(await cancel(s.c, s.transferId), 409, "transfer.stateInvalid");
  });

  test("RETRY_ALLOWED: state unchanged, outcome NETWORK_IN_PROGRESS_RETRY_ALLOWED; the old key replays, a new key is a new 202 pending", async () => {
    const s = await fundedScenario();
    await advanceTo(s.c, s.transferId, "topay");
    const key = randomUUID();
    const first = await cancel(s.c, s.transferId, { idempotencyKey: key });
    assert.equal(first.status, 202, first.text);
    const resolved = await networkCancellation(s.c, s.transferId, "NETWORK_IN_PROGRESS_RETRY_ALLOWED");
    assert.equal(resolved.status, 200, resolved.text);
    const read = (await readTransfer(s.c, s.transferId)).body;
    assert.equal(read.transferStatus, "topay");
    assert.equal(read.cancellation.cancellationOutcome, "NETWORK_IN_PROGRESS_RETRY_ALLOWED");
    assert.equal(read.cancellation.canceledAt, null);
    assert.equal(read.refund, null);

    const replay = await cancel(s.c, s.transferId, { idempotencyKey: key });
    assert.equal(replay.status, 202);
    assert.equal(replay.text, first.text);
    assert.equal(replay.headers.get("idempotent-replayed"), "true");

    const retry = await cancel(s.c, s.transferId);
    assert.equal(retry.status, 202, retry.text);
    assert.equal(retry.body.transferStatus, "topay");
    assert.equal(retry.body.cancellationOutcome, "NETWORK_CANCELLATION_PENDING");
    assert.equal(retry.body.canceledAt, null);
    assert.ok(retry.body.networkCancellationExpectedBy);
    // The network moves on meanwhile (topay → reqpay) and then cancels.
    await advanceTo(s.c, s.transferId, "reqpay");
    assert.equal((await networkCancellation(s.c, s.transferId, "NETWORK_CANCELLATION_SUCCESS")).status, 200);
    const done = (await readTransfer(s.c, s.transferId)).body;
    assert.equal(done.transferStatus, "canceled");
    assert.ok(["PENDING", "PROCESSING", "COMPLETED"].includes(done.refund.refundStatus), JSON.stringify(done.refund));
  });
});

describe("cancel: refusals, idempotency, validation, scope", () => {
  test("a terminal transfer (aborted, paid) is 409 transfer.stateInvalid", async () => {
    const s = await registeredScenario();
    assert.equal((await cancel(s.c, s.transferId)).status, 200);
    const error = assertError(await cancel(s.c, s.transferId), 409, "transfer.stateInvalid");
    assert.equal(error.details.currentState, "aborted");

    const p = await fundedScenario();
    await advanceTo(p.c, p.transferId, "topay", "reqpay", "paid");
    assertError(await cancel(p.c, p.transferId), 409, "transfer.stateInvalid");
  });

  test("same key and same body replays the original 200; the same key on another transfer is 409 idempotency.conflict", async () => {
    const s = await registeredScenario();
    const key = randomUUID();
    const first = await cancel(s.c, s.transferId, { idempotencyKey: key });
    assert.equal(first.status, 200, first.text);
    const again = await cancel(s.c, s.transferId, { idempotencyKey: key });
    assert.equal(again.status, 200);
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get("idempotent-replayed"), "true");

    const other = await acceptTransfer(s.c, s.beneficiaryId);
    assertError(await cancel(s.c, other.transferId, { idempotencyKey: key }), 409, "idempotency.conflict");
    assert.equal((await readTransfer(s.c, other.transferId)).body.transferStatus, "registered");
  });

  test("cancellationReason unknown: 400 validation.fieldInvalid; another customer's transfer: 404", async () => {
    const s = await registeredScenario();
    assertIssue(await cancel(s.c, s.transferId, { body: { cancellationReason: "BORED" } }), "cancellationReason", "validation.fieldInvalid");
    const intruder = await validCustomer();
    assertError(await cancel(intruder, s.transferId), 404, "transfer.notFound");
    assert.equal((await readTransfer(s.c, s.transferId)).body.transferStatus, "registered");
  });
});

test("cancellationReason missing: 400 validation.fieldMissing", async () => {
  const s = await registeredScenario();
  assertIssue(await cancel(s.c, s.transferId, { body: {} }), "cancellationReason", "validation.fieldMissing");
  assert.equal((await readTransfer(s.c, s.transferId)).body.transferStatus, "registered");
});

describe("cancel from spended resolves by the prior state", () => {
  test("held while funded → 202 canceled with a refund", async () => {
    const s = await fundedScenario();
    const held = await hold(s.c, s.transferId);
    assert.equal(held.status, 200, held.text);
    assert.equal(held.body.transferStatus, "spended");
    const now = await serverNow();
    const res = await cancel(s.c, s.transferId);
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.transferStatus, "canceled");
    assert.equal(res.body.cancellationOutcome, "CANCELED_PRE_NETWORK");
    assertRefundStarted(res.body.refund, now);
    const t = await awaitRefundCompleted(s.c, s.transferId);
    assert.deepEqual(states(t).slice(-2), ["spended", "canceled"]);
  });

  test("held while registered → 200 aborted, no refund", async () => {
    const s = await registeredScenario();
    assert.equal((await hold(s.c, s.transferId)).status, 200);
    const res = await cancel(s.c, s.transferId);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.transferStatus, "aborted");
    assert.equal(res.body.cancellationOutcome, "ABORTED_PRE_FUNDING");
    assert.equal(res.body.refund, null);
    assert.deepEqual(states((await readTransfer(s.c, s.transferId)).body), ["registered", "spended", "aborted"]);
  });

  test("held while topay → 202 pending (still spended); the network's SUCCESS lands anyway → canceled", async () => {
    const s = await fundedScenario();
    await advanceTo(s.c, s.transferId, "topay");
    assert.equal((await hold(s.c, s.transferId)).status, 200);
    const res = await cancel(s.c, s.transferId);
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.transferStatus, "spended");
    assert.equal(res.body.cancellationOutcome, "NETWORK_CANCELLATION_PENDING");
    assert.equal(res.body.canceledAt, null);
    assert.equal((await networkCancellation(s.c, s.transferId, "NETWORK_CANCELLATION_SUCCESS")).status, 200);
    const t = (await readTransfer(s.c, s.transferId)).body;
    assert.equal(t.transferStatus, "canceled");
    assert.ok(t.refund);
  });
});

test("cancel racing the funding provider: aborted without funded, or funded then canceled with a refund; never a 500", async () => {
  for (let round = 0; round < 2; round++) {
    const s = await fundingScenario();
    const [funding, canceled] = await Promise.all([completeFunding(s.c, s.confirmed.fundingSession.fundingSessionId), cancel(s.c, s.transferId)]);
    assert.ok(funding.status < 500, funding.text);
    assert.ok(canceled.status < 500, canceled.text);
    const t = (await readTransfer(s.c, s.transferId)).body;
    if (t.transferStatus === "aborted") {
      assert.equal(canceled.status, 200, canceled.text);
      assert.ok(!states(t).includes("funded"), JSON.stringify(t.stateHistory));
      assert.equal(t.refund, null);
      assert.ok([409, 410].includes(funding.status), funding.text);
    } else {
      assert.equal(t.transferStatus, "canceled", JSON.stringify(t));
      assert.deepEqual(states(t).slice(-2), ["funded", "canceled"]);
      assert.equal(funding.status, 200, funding.text);
      assert.equal(canceled.status, 202, canceled.text);
      assert.equal(canceled.body.cancellationOutcome, "CANCELED_PRE_NETWORK");
      assert.ok(t.refund, "a funded-then-canceled transfer carries a refund");
      assert.equal(t.refund.refundMethod, "ORIGINAL_PAYMENT_METHOD");
    }
  }
});
