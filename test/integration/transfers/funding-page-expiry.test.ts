/**
 * The hosted funding page runs through the same unit of work as the API (issue 10 item 3): a
 * payment made after the transfer's 120-minute deadline, while its funding session is still open,
 * answers expired and the expiry it found stays committed (the transfer expired, its session
 * ended, the page dead). The clock is moved with POST /v1/sandbox/clock.
 * (test/unit/db/unit-of-work.test.ts proves the same without a worker or a read in between.)
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { fundingScenario } from "./support";
import { call, advanceClock, assertError, awaitTransfer, confirmNow, readTransfer, relogin, serverNow } from "../support";

test("a payment on the hosted page after the transfer's deadline answers 410 funding.sessionExpired, and the expiry is committed", async () => {
  const s = await fundingScenario();
  const deadline = Date.parse((await readTransfer(s.c, s.transferId)).body.transferExpiresAt);

  // The first funding session lapses (30 min): back to validated; a new confirm near the deadline.
  await advanceClock(1801);
  await awaitTransfer(s.c, s.transferId, "validated");
  await advanceClock(Math.floor((deadline - (await serverNow()).getTime()) / 1000) - 120);
  await relogin(s.c);
  const again = await confirmNow({ customer: s.c, device: s.device }, s.transferId);
  assert.equal(again.transferStatus, "funding");
  const url: string = again.fundingSession.fundingWebviewUrl;

  // Past the transfer's deadline, the new session (30 min) still open: the customer pays.
  await advanceClock(121);
  const token = new URL(url).pathname.split("/").at(-1)!;
  const paid = await call("POST", `/webviews/funding/${token}/pay`, { body: { method: "BANK_TRANSFER" }, key: null });
  assertError(paid, 410, "funding.sessionExpired");
  const answered = await serverNow();

  await relogin(s.c);
  const t = (await readTransfer(s.c, s.transferId)).body;
  assert.equal(t.transferStatus, "expired", JSON.stringify(t));
  const last = t.stateHistory.at(-1);
  assert.equal(last.reasonCode, "TRF_EXPIRED_TIMEOUT");
  assert.ok(Date.parse(last.transitionedAt) <= answered.getTime(), "expired no later than the page's answer");
  assert.equal("fundingSession" in t, false);
  const page = await fetch(url, { headers: { accept: "text/html" } });
  assert.ok((await page.text()).includes('data-testid="webview-expired"'), "the funding URL shows the expired page");
});
