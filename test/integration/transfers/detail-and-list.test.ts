/**
 * GET /v1/core/transfers/{id} and GET /v1/core/transfers (spec 2.7, 2.8, 4.1 rules 7-8, 8):
 * each optional detail field present exactly in the states the spec names, a fresh
 * confirmationChallenge on every read in validated, scope (404), and the list: summary projection,
 * states and createdSince filters, cursor pagination, limits and the 30-day default window.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { fundingScenario, registeredScenario, submitAndValidate, validatedScenario } from "./support";
import {
  acceptTransfer,
  advanceClock,
  assertError,
  assertIssue,
  assertWithin,
  cancel,
  completeFunding,
  listTransfers,
  readTransfer,
  relogin,
  timed,
  validBeneficiaryId,
  validCustomer,
  type Customer,
} from "../support";

/** Keys every detail carries, whatever the state. */
const ALWAYS = [
  "beneficiaryId",
  "cancellation",
  "confirmedAt",
  "createdAt",
  "customerActionExpected",
  "destinationAmount",
  "destinationCurrency",
  "fxRate",
  "nextStep",
  "originAmount",
  "originCurrency",
  "partnerFee",
  "payoutMethod",
  "principalFee",
  "purposeOfTransfer",
  "quoteId",
  "refund",
  "stateHistory",
  "submittedAt",
  "totalCustomerCost",
  "totalCustomerCostCurrency",
  "transferId",
  "transferStateChangedAt",
  "transferStatus",
];

function assertKeys(t: any, extra: string[]) {
  assert.deepEqual(Object.keys(t).sort(), [...ALWAYS, ...extra].sort(), JSON.stringify(t));
}

function assertHistoryShape(t: any) {
  assert.ok(Array.isArray(t.stateHistory) && t.stateHistory.length > 0);
  for (const h of t.stateHistory) {
    assert.deepEqual(Object.keys(h).sort(), ["reasonCode", "state", "transitionedAt"], JSON.stringify(h));
    assert.equal(typeof h.reasonCode, "string");
    assert.ok(!Number.isNaN(Date.parse(h.transitionedAt)));
  }
  assert.equal(t.stateHistory.at(-1).state, t.transferStatus);
}

const TWO_HOURS_MS = 120 * 60_000;

describe("detail: fields per state", () => {
  test("registered: transferExpiresAt = createdAt + 120 min, AWAIT_FAST_CHECK, no challenge, no funding session, cancellation and refund null", async () => {
    const s = await registeredScenario();
    const res = await readTransfer(s.c, s.transferId);
    assert.equal(res.status, 200, res.text);
    const t = res.body;
    assertKeys(t, ["transferExpiresAt", "estimatedDeliveryBy", "estimatedDeliveryBasis"]);
    assert.equal(t.transferStatus, "registered");
    assert.equal(Date.parse(t.transferExpiresAt) - Date.parse(t.createdAt), TWO_HOURS_MS);
    assert.equal(t.nextStep, "AWAIT_FAST_CHECK");
    assert.equal(t.customerActionExpected, "WAIT");
    assert.equal(t.cancellation, null);
    assert.equal(t.refund, null);
    assert.equal(t.payoutMethod, null);
    assert.equal(t.submittedAt, null);
    assert.equal(t.confirmedAt, null);
    assert.equal(t.quoteId, s.quoteId);
    assert.equal(t.beneficiaryId, s.beneficiaryId);
    assert.equal(t.originCurrency, "USD");
    assert.equal(t.destinationCurrency, "MXN");
    assert.equal(t.totalCustomerCostCurrency, "USD");
    assert.deepEqual(t.stateHistory, [{ state: "registered", transitionedAt: t.createdAt, reasonCode: "TRF_INITIATION_QUOTE_ACCEPTED" }]);
    assertHistoryShape(t);
  });

  test("validated: a new confirmationChallenge on every GET, expiring 10 minutes after issuance", async () => {
    const s = await validatedScenario();
    const {
      result: [first, second],
      before,
      after,
    } = await timed(async () => [await readTransfer(s.c, s.transferId), await readTransfer(s.c, s.transferId)]);
    assert.equal(first.status, 200, first.text);
    assert.equal(second.status, 200, second.text);
    for (const t of [first.body, second.body]) {
      assertKeys(t, ["transferExpiresAt", "confirmationChallenge", "confirmationChallengeExpiresAt", "estimatedDeliveryBy", "estimatedDeliveryBasis"]);
      assert.equal(t.transferStatus, "validated");
      assert.equal(t.nextStep, "CONFIRM_TRANSFER");
      assert.equal(t.customerActionExpected, "CONFIRM");
      assert.equal(Date.parse(t.transferExpiresAt) - Date.parse(t.createdAt), TWO_HOURS_MS);
      assert.equal(typeof t.confirmationChallenge, "string");
      assert.ok(t.confirmationChallenge.length >= 16);
      assertWithin(t.confirmationChallengeExpiresAt, before, after, 10 * 60_000, "confirmationChallengeExpiresAt");
      assert.equal(t.cancellation, null);
      assert.equal(t.refund, null);
      assertHistoryShape(t);
    }
    assert.notEqual(first.body.confirmationChallenge, second.body.confirmationChallenge);
  });

  test("funding: fundingSession (webview URL null on reads), no challenge, transferExpiresAt still shown; funded: none of them", async () => {
    const s = await fundingScenario();
    const url = s.confirmed.fundingSession.fundingWebviewUrl;
    assert.equal(typeof url, "string");
    const res = await readTransfer(s.c, s.transferId);
    assert.equal(res.status, 200, res.text);
    const t = res.body;
    assertKeys(t, ["transferExpiresAt", "fundingSession", "estimatedDeliveryBy", "estimatedDeliveryBasis"]);
    assert.equal(t.transferStatus, "funding");
    assert.equal(t.nextStep, "COMPLETE_FUNDING");
    assert.equal(t.customerActionExpected, "FUND");
    assert.deepEqual(t.fundingSession, {
      fundingSessionId: s.confirmed.fundingSession.fundingSessionId,
      fundingWebviewUrl: null,
      expiresAt: s.confirmed.fundingSession.expiresAt,
    });
    assert.equal(Date.parse(t.fundingSession.expiresAt) - Date.parse(t.confirmedAt), 30 * 60_000);
    assert.equal(t.confirmedAt, s.confirmed.confirmedAt);
    assert.ok(!res.text.includes(url), "a read must not repeat the single-use funding URL");
    assert.equal(t.stateHistory.at(-1).reasonCode, "TRF_AUTH_DEVICE_VERIFIED");

    const done = await completeFunding(s.c, t.fundingSession.fundingSessionId);
    assert.equal(done.status, 200, done.text);
    const funded = (await readTransfer(s.c, s.transferId)).body;
    // The delivery estimate, counted from the funding once funded.
    assertKeys(funded, ["estimatedDeliveryBy", "estimatedDeliveryBasis"]);
    assert.equal(funded.estimatedDeliveryBasis, "FUNDED");
    assert.ok(Date.parse(funded.estimatedDeliveryBy) >= Date.parse(funded.stateHistory.at(-1).transitionedAt), funded.estimatedDeliveryBy);
    assert.equal(funded.transferStatus, "funded");
    assert.equal(funded.nextStep, "CONTINUE");
    assert.equal(funded.customerActionExpected, "WAIT");
    assert.equal(funded.stateHistory.at(-1).reasonCode, "TRF_FUNDING_SUCCESS");
  });

  test("terminal (aborted): nextStep null, customerActionExpected NONE, no transferExpiresAt, cancellation set, refund null", async () => {
    const s = await validatedScenario();
    assert.equal((await cancel(s.c, s.transferId)).status, 200);
    const res = await readTransfer(s.c, s.transferId);
    const t = res.body;
    assertKeys(t, []);
    assert.equal(t.transferStatus, "aborted");
    assert.equal(t.nextStep, null);
    assert.equal(t.customerActionExpected, "NONE");
    assert.equal(t.refund, null);
    assert.equal(t.cancellation.cancellationOutcome, "ABORTED_PRE_FUNDING");
    assertHistoryShape(t);
    // Reading a terminal transfer twice changes nothing.
    const again = await readTransfer(s.c, s.transferId);
    assert.equal(again.text, res.text);
  });

  test("another customer's transfer, or an unknown id: 404 transfer.notFound", async () => {
    const s = await registeredScenario();
    const intruder = await validCustomer();
    assertError(await readTransfer(intruder, s.transferId), 404, "transfer.notFound");
    assertError(await readTransfer(s.c, "trf_doesnotexist00000000000"), 404, "transfer.notFound");
    // And it is absent from the intruder's list.
    const list = await listTransfers(intruder);
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.body.items, []);
  });
});

const SUMMARY_KEYS = [
  "beneficiaryId",
  "createdAt",
  "destinationAmount",
  "destinationCurrency",
  "originAmount",
  "originCurrency",
  "transferId",
  "transferStateChangedAt",
  "transferStatus",
];

describe("list", () => {
  let c: Customer;
  let beneficiaryId: string;
  /** Newest first: [validated, aborted, registered]. */
  let ids: string[] = [];

  test("setup: three transfers (registered, aborted, validated)", async () => {
    c = await validCustomer();
    beneficiaryId = await validBeneficiaryId(c);
    const registered = (await acceptTransfer(c, beneficiaryId)).transferId;
    const aborted = (await acceptTransfer(c, beneficiaryId)).transferId;
    assert.equal((await cancel(c, aborted)).status, 200);
    const validated = (await acceptTransfer(c, beneficiaryId)).transferId;
    await submitAndValidate({ c, beneficiaryId, transferId: validated, quoteId: "" });
    ids = [validated, aborted, registered];
  });

  test("summary projection only, newest first", async () => {
    const res = await listTransfers(c);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ["items", "nextCursor"]);
    assert.deepEqual(
      res.body.items.map((i: any) => i.transferId),
      ids,
    );
    assert.deepEqual(
      res.body.items.map((i: any) => i.transferStatus),
      ["validated", "aborted", "registered"],
    );
    assert.equal(res.body.nextCursor, null);
    for (const item of res.body.items) {
      assert.deepEqual(Object.keys(item).sort(), SUMMARY_KEYS, JSON.stringify(item));
      assert.equal(item.beneficiaryId, beneficiaryId);
    }
    for (const key of ["confirmationChallenge", "cancellation", "refund", "stateHistory", "fundingSession"])
      assert.ok(!res.text.includes(`"${key}"`), `list carries ${key}`);
  });

  test("states filter: one state, several states", async () => {
    const aborted = await listTransfers(c, "states=aborted");
    assert.equal(aborted.status, 200, aborted.text);
    assert.deepEqual(
      aborted.body.items.map((i: any) => i.transferId),
      [ids[1]],
    );
    const two = await listTransfers(c, "states=registered,validated");
    assert.deepEqual(
      two.body.items.map((i: any) => i.transferId),
      [ids[0], ids[2]],
    );
    const none = await listTransfers(c, "states=paid");
    assert.deepEqual(none.body.items, []);
    assert.equal(none.body.nextCursor, null);
  });

  test("an invalid state (or upper-case value, or trailing comma) is 400 on query.states", async () => {
    for (const q of ["states=bogus", "states=REGISTERED", "states=registered,"]) {
      assertIssue(await listTransfers(c, q), "query.states", "validation.fieldFormatInvalid");
    }
  });

  test("createdSince: created on or after the timestamp", async () => {
    const all = (await listTransfers(c)).body.items;
    const middle = all[1];
    const res = await listTransfers(c, `createdSince=${encodeURIComponent(middle.createdAt)}`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.items.map((i: any) => i.transferId),
      [ids[0], ids[1]],
    );
    const later = new Date(Date.parse(all[0].createdAt) + 1).toISOString();
    assert.deepEqual((await listTransfers(c, `createdSince=${encodeURIComponent(later)}`)).body.items, []);
    // With an offset instead of Z.
    const offset = new Date(Date.parse(middle.createdAt)).toISOString().replace("Z", "+00:00");
    assert.deepEqual(
      (await listTransfers(c, `createdSince=${encodeURIComponent(offset)}`)).body.items.map((i: any) => i.transferId),
      [ids[0], ids[1]],
    );
    assertIssue(await listTransfers(c, "createdSince=yesterday"), "query.createdSince", "validation.fieldFormatInvalid");
  });

  test("limit=1 walks every transfer through nextCursor, then nextCursor is null", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page++) {
      const res = await listTransfers(c, `limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.items.length, 1, res.text);
      seen.push(res.body.items[0].transferId);
      cursor = res.body.nextCursor;
      if (cursor === null) break;
    }
    assert.deepEqual(seen, ids);
    // The filter applies across pages too.
    const p1 = await listTransfers(c, "limit=1&states=registered,validated");
    assert.deepEqual(
      p1.body.items.map((i: any) => i.transferId),
      [ids[0]],
    );
    const p2 = await listTransfers(c, `limit=1&states=registered,validated&cursor=${encodeURIComponent(p1.body.nextCursor)}`);
    assert.deepEqual(
      p2.body.items.map((i: any) => i.transferId),
      [ids[2]],
    );
    assert.equal(p2.body.nextCursor, null);
  });

  test("limit bounds: 200 accepted, 201 and 0 are 400", async () => {
    assert.equal((await listTransfers(c, "limit=200")).status, 200);
    assertIssue(await listTransfers(c, "limit=201"), "query.limit", "validation.fieldInvalid");
    assertIssue(await listTransfers(c, "limit=0"), "query.limit", "validation.fieldInvalid");
  });

  test("a tampered cursor, or another customer's cursor, is 400 validation.fieldInvalid on query.cursor", async () => {
    const page = await listTransfers(c, "limit=1");
    const cursor: string = page.body.nextCursor;
    const [body, mac] = cursor.split(".");
    const payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
    const forged = `${Buffer.from(JSON.stringify({ ...payload, c: payload.c + 1 })).toString("base64url")}.${mac}`;
    assertIssue(await listTransfers(c, `cursor=${encodeURIComponent(forged)}`), "query.cursor", "validation.fieldInvalid");
    assertIssue(await listTransfers(c, `cursor=${encodeURIComponent(cursor.slice(0, -2))}`), "query.cursor", "validation.fieldInvalid");
    assertIssue(await listTransfers(c, "cursor=garbage"), "query.cursor", "validation.fieldInvalid");
    const other = await validCustomer();
    assertIssue(await listTransfers(other, `cursor=${encodeURIComponent(cursor)}`), "query.cursor", "validation.fieldInvalid");
  });
});

test("default window: a terminal transfer older than 30 days leaves the default list but stays listable by state", async () => {
  const c = await validCustomer();
  const beneficiaryId = await validBeneficiaryId(c);
  const old = (await acceptTransfer(c, beneficiaryId)).transferId;
  assert.equal((await cancel(c, old)).status, 200);
  const active = (await acceptTransfer(c, beneficiaryId)).transferId;
  assert.deepEqual(
    (await listTransfers(c)).body.items.map((i: any) => i.transferId),
    [active, old],
  );

  await advanceClock(31 * 86400);
  await relogin(c);
  // A fresh terminal transfer (the registered one expired meanwhile: changed now) stays in the window.
  const t = await readTransfer(c, active);
  assert.equal(t.body.transferStatus, "expired", t.text);
  const res = await listTransfers(c);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(
    res.body.items.map((i: any) => [i.transferId, i.transferStatus]),
    [[active, "expired"]],
  );
  const byState = await listTransfers(c, "states=aborted");
  assert.deepEqual(
    byState.body.items.map((i: any) => i.transferId),
    [old],
  );
  const both = await listTransfers(c, "states=aborted,expired");
  assert.deepEqual(
    both.body.items.map((i: any) => i.transferId),
    [active, old],
  );
});

test("list right after the 120-minute deadline shows the transfer expired, even before the timer job", async () => {
  const s = await registeredScenario({ fresh: true });
  await advanceClock(7201);
  await relogin(s.c);
  const res = await listTransfers(s.c);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(
    res.body.items.map((i: any) => [i.transferId, i.transferStatus]),
    [[s.transferId, "expired"]],
  );
  const filtered = await listTransfers(s.c, "states=registered");
  assert.deepEqual(filtered.body.items, []);
});
