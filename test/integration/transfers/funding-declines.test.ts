/**
 * A declined payment keeps the funding session open (docs/decisions.md): the customer
 * tries again on the same session and URL until it expires, and FUNDING_MAX_DECLINES (5) declines
 * close it FAILED and return the transfer to validated (TRF_FUNDING_DECLINED) for a new confirm.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { fundingScenario } from "./support";
import { assertError, completeFunding, confirmNow, readTransfer } from "../support";

test("a decline leaves the session OPEN and the transfer in funding; the next payment on the same session funds it", async () => {
  const s = await fundingScenario();
  const id = s.confirmed.fundingSession.fundingSessionId;
  const declined = await completeFunding(s.c, id, "FAILED");
  assert.equal(declined.status, 200, declined.text);
  assert.deepEqual(declined.body, { fundingSessionId: id, sessionState: "OPEN", transferStatus: "funding" });
  // The page still opens: the URL was not retired by the decline.
  const page = await fetch(s.confirmed.fundingSession.fundingWebviewUrl, { headers: { accept: "text/html" } });
  assert.equal(page.status, 200);
  assert.ok(!(await page.text()).includes('data-testid="webview-expired"'));
  const paid = await completeFunding(s.c, id, "SUCCEEDED");
  assert.equal(paid.status, 200, paid.text);
  assert.deepEqual(paid.body, { fundingSessionId: id, sessionState: "SUCCEEDED", transferStatus: "funded" });
  assertError(await completeFunding(s.c, id, "SUCCEEDED"), 409, "funding.sessionStateInvalid");
});

test("the fifth decline closes the session FAILED, the URL is dead, the transfer is back in validated for a new confirm", async () => {
  const s = await fundingScenario();
  const id = s.confirmed.fundingSession.fundingSessionId;
  for (let i = 1; i <= 4; i++) {
    const res = await completeFunding(s.c, id, "FAILED");
    assert.equal(res.body.sessionState, "OPEN", `decline ${i}: ${res.text}`);
  }
  const last = await completeFunding(s.c, id, "FAILED");
  assert.deepEqual(last.body, { fundingSessionId: id, sessionState: "FAILED", transferStatus: "validated" });
  assertError(await completeFunding(s.c, id, "SUCCEEDED"), 409, "funding.sessionStateInvalid");
  const t = await readTransfer(s.c, s.transferId);
  assert.equal(t.body.transferStatus, "validated", t.text);
  assert.equal(t.body.stateHistory.at(-1).reasonCode, "TRF_FUNDING_DECLINED");
  const page = await fetch(s.confirmed.fundingSession.fundingWebviewUrl, { headers: { accept: "text/html" } });
  assert.ok((await page.text()).includes('data-testid="webview-expired"'));
  // A new confirm opens a new session at once, which funds.
  const again = await confirmNow({ customer: s.c, device: s.device }, s.transferId);
  const paid = await completeFunding(s.c, again.fundingSession.fundingSessionId);
  assert.equal(paid.body.transferStatus, "funded", paid.text);
});
