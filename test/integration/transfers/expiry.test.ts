/**
 * Time limits (spec 3.1, 8; decisions 1): the 120-minute transfer lifetime before funding (a read
 * expires an overdue transfer without waiting for the timer job; funded transfers never expire)
 * and the 30-minute funding session (the transfer returns to validated, the URL shows the expired
 * page, a new confirm opens a new session). The clock is moved with POST /v1/sandbox/clock.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { fundedScenario, fundingScenario, registeredScenario, validatedScenario } from "./support";
import {
  advanceClock,
  assertError,
  awaitTransfer,
  cancel,
  completeFunding,
  confirmNow,
  readTransfer,
  reasons,
  relogin,
  serverNow,
  states,
  submit,
  submitBody,
} from "../support";

const EXPIRED_PAGE = 'data-testid="webview-expired"';

async function openPage(url: string) {
  const res = await fetch(url, { headers: { accept: "text/html" } });
  return { status: res.status, html: await res.text() };
}

function assertExpired(t: any) {
  assert.equal(t.transferStatus, "expired", JSON.stringify(t));
  assert.equal(t.stateHistory.at(-1).state, "expired");
  assert.equal(t.stateHistory.at(-1)?.reasonCode, "TRF_EXPIRED_TIMEOUT");
  assert.equal(t.nextStep, null);
  assert.equal(t.customerActionExpected, "NONE");
  assert.equal("transferExpiresAt" in t, false);
  assert.equal("confirmationChallenge" in t, false);
  assert.equal("fundingSession" in t, false);
}

test("registered: still registered just before 120 minutes, expired (TRF_EXPIRED_TIMEOUT) on the first read after, without waiting for the job", async () => {
  const s = await registeredScenario();
  const before = (await readTransfer(s.c, s.transferId)).body;
  // To 30 s before the deadline (the setup's own duration is unknown), then past it.
  const remaining = Math.floor((Date.parse(before.transferExpiresAt) - (await serverNow()).getTime()) / 1000);
  assert.ok(remaining > 7000 && remaining <= 7200, `remaining ${remaining} s`);
  await advanceClock(remaining - 30);
  await relogin(s.c);
  const almost = (await readTransfer(s.c, s.transferId)).body;
  assert.equal(almost.transferStatus, "registered", JSON.stringify(almost));
  assert.equal(almost.transferExpiresAt, before.transferExpiresAt);

  await advanceClock(31);
  const res = await readTransfer(s.c, s.transferId);
  assert.equal(res.status, 200, res.text);
  assertExpired(res.body);
  assert.deepEqual(reasons(res.body), ["TRF_INITIATION_QUOTE_ACCEPTED", "TRF_EXPIRED_TIMEOUT"]);
  assert.ok(Date.parse(res.body.transferStateChangedAt) >= Date.parse(before.transferExpiresAt));
  // Terminal: no submit, no cancel.
  assertError(await submit(s.c, s.transferId, submitBody(s.beneficiaryId)), 409, "transfer.stateInvalid");
  assertError(await cancel(s.c, s.transferId), 409, "transfer.stateInvalid");
});

test("a write (cancel) after the deadline also sees the transfer expired: 409, not aborted", async () => {
  const s = await registeredScenario();
  await advanceClock(7201);
  await relogin(s.c);
  const res = await cancel(s.c, s.transferId);
  const error = assertError(res, 409, "transfer.stateInvalid");
  assert.equal(error.details.currentState, "expired");
  assertExpired((await readTransfer(s.c, s.transferId)).body);
});

test("validated expires too (120 minutes from registered)", async () => {
  const s = await validatedScenario();
  await advanceClock(7201);
  await relogin(s.c);
  const t = (await readTransfer(s.c, s.transferId)).body;
  assertExpired(t);
  assert.deepEqual(states(t), ["registered", "validated", "expired"]);
});

test("a funded transfer does not expire", async () => {
  const s = await fundedScenario();
  await advanceClock(7201);
  await relogin(s.c);
  const t = (await readTransfer(s.c, s.transferId)).body;
  assert.equal(t.transferStatus, "funded");
  assert.equal(t.stateHistory.at(-1)?.reasonCode, "TRF_FUNDING_SUCCESS");
});

test("funding session expiry (30 min): back to validated (TRF_FUNDING_SESSION_EXPIRED), the URL shows the expired page, completion is 410, a new confirm opens a new session", async () => {
  const s = await fundingScenario();
  const url: string = s.confirmed.fundingSession.fundingWebviewUrl;
  const live = await openPage(url);
  assert.equal(live.status, 200);
  assert.ok(!live.html.includes(EXPIRED_PAGE), "the live funding page is not the expired page");

  await advanceClock(1801);
  const t = await awaitTransfer(s.c, s.transferId, "validated");
  assert.deepEqual(states(t), ["registered", "validated", "funding", "validated"]);
  assert.equal(t.stateHistory.at(-1)?.reasonCode, "TRF_FUNDING_SESSION_EXPIRED");
  assert.equal("fundingSession" in t, false);
  assert.equal(typeof t.confirmationChallenge, "string");
  assert.ok(t.transferExpiresAt, "still pre-funding: the 120-minute deadline stands");

  const page = await openPage(url);
  assert.ok(page.html.includes(EXPIRED_PAGE), `the expired funding URL does not show the expired page (${page.status})`);
  assertError(await completeFunding(s.c, s.confirmed.fundingSession.fundingSessionId), 410, "funding.sessionExpired");

  const again = await confirmNow({ customer: s.c, device: s.device }, s.transferId);
  assert.equal(again.transferStatus, "funding");
  assert.notEqual(again.fundingSession.fundingSessionId, s.confirmed.fundingSession.fundingSessionId);
  assert.notEqual(again.fundingSession.fundingWebviewUrl, url);
  const done = await completeFunding(s.c, again.fundingSession.fundingSessionId);
  assert.equal(done.status, 200, done.text);
  assert.equal(done.body.transferStatus, "funded");
});

test("a transfer still in funding at 120 minutes expires, and its funding URL is dead", async () => {
  const s = await fundingScenario();
  await advanceClock(7201);
  await relogin(s.c);
  const t = (await readTransfer(s.c, s.transferId)).body;
  assertExpired(t);
  const page = await openPage(s.confirmed.fundingSession.fundingWebviewUrl);
  assert.ok(page.html.includes(EXPIRED_PAGE), `funding page after expiry (${page.status})`);
  const late = await completeFunding(s.c, s.confirmed.fundingSession.fundingSessionId);
  assertError(late, 410, "funding.sessionExpired");
});
