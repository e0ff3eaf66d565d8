/**
 * The hosted funding page after the transfer's 120-minute deadline: a funding session confirmed near the deadline ends with the transfer (never 30 minutes
 * later), so a payment a minute past it answers expired and the transfer is expired, its session
 * ended, the page dead. The clock is moved with POST /v1/sandbox/clock. (That an expiry found on
 * the way is committed with the refusal is proven without a worker in
 * test/unit/db/unit-of-work.test.ts; a session can no longer be open past its transfer's deadline.)
 * The page writes that deadline in the customer's time zone, with its offset.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { formatDateTime } from "@/lib/platform/i18n/format";
import { fundingScenario } from "./support";
import { call, advanceClock, assertError, awaitTransfer, confirmNow, readTransfer, relogin, serverNow } from "../support";

test("a payment on the hosted page after the transfer's deadline answers 410 funding.sessionExpired, and the transfer is expired", async () => {
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

  // The new session ends with the transfer, not 30 minutes after confirming.
  assert.equal(Date.parse(again.fundingSession.expiresAt), deadline, "the session ends at the transfer's deadline");
  // The page says so in the customer's time (Austin, Texas: Central), with the offset; the API in UTC.
  assert.match(again.fundingSession.expiresAt, /Z$/);
  const until = formatDateTime(again.fundingSession.expiresAt, "en", "America/Chicago");
  assert.match(until, / C[SD]T \(UTC−0[56]:00\)$/);
  const open = await (await fetch(url, { headers: { accept: "text/html", "accept-language": "en" } })).text();
  assert.ok(open.includes(`Pay before ${until}.`), `the page lacks "Pay before ${until}."`);
  // Past the transfer's deadline: the customer pays anyway.
  await advanceClock(121);
  const token = new URL(url).pathname.split("/").at(-1)!;
  const paid = await call("POST", `/webviews/funding/${token}/pay`, { body: { method: "BANK_TRANSFER" }, key: null });
  assertError(paid, 410, "funding.sessionExpired");

  await relogin(s.c);
  const t = await awaitTransfer(s.c, s.transferId, "expired");
  assert.equal(t.stateHistory.at(-1)?.reasonCode, "TRF_EXPIRED_TIMEOUT");
  assert.equal("fundingSession" in t, false);
  const page = await fetch(url, { headers: { accept: "text/html" } });
  assert.ok((await page.text()).includes('data-testid="webview-expired"'), "the funding URL shows the expired page");
});
