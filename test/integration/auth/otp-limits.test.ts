/**
 * OTP limits: messages per identifier and purpose (5 per hour by default, then 429
 * auth.rateLimited with Retry-After, the same for unknown and registered identifiers), and the
 * per-identifier cap on wrong codes (15 per hour) holding under parallel guesses.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { otherCode } from "./helpers";
import { advanceClock, call, latestOtp, registerCustomer, uniqueEmail, uniquePhone, type CallResult, assertError } from "../support";

/** OTP_SEND_MAX_PER_IDENTIFIER, OTP_SEND_IDENTIFIER_WINDOW_SECONDS, OTP_VERIFY_MAX_FAILURES_PER_IDENTIFIER defaults. */
const SENDS = 5;
const SEND_WINDOW = 3600;
const VERIFY_CAP = 15;

const registerStart = (identifier: string) => call("POST", "/v1/auth/register/start", { body: { identifier } });
const resetStart = (identifier: string) => call("POST", "/v1/auth/password-reset/start", { body: { identifier } });
const verify = (registrationId: string, otp: string) => call("POST", "/v1/auth/register/verify-otp", { body: { registrationId, otp } });

/** Asserts the throttle answer and returns its wait in seconds. */
function assertThrottled(res: CallResult): number {
  const error = assertError(res, 429, "auth.rateLimited");
  const wait = Number(res.headers.get("retry-after"));
  assert.ok(Number.isInteger(wait) && wait > 0 && wait <= SEND_WINDOW, `Retry-After ${res.headers.get("retry-after")}`);
  assert.equal(error.details.retryAfterSeconds, wait);
  return wait;
}

test("register/start: five codes per identifier per hour, then 429 auth.rateLimited with Retry-After; the clock +1 h sends again", async () => {
  const identifier = uniqueEmail("otp-flood");
  for (let i = 0; i < SENDS; i++) assert.equal((await registerStart(identifier)).status, 200);
  const before = await latestOtp(identifier);
  const refused = await registerStart(identifier);
  assert.ok(assertThrottled(refused) > SEND_WINDOW - 120);
  // Nothing was sent for the refused request: the outbox's latest code is unchanged.
  assert.equal(await latestOtp(identifier), before);
  // Another identifier is not affected.
  assert.equal((await registerStart(uniqueEmail("otp-other"))).status, 200);
  await advanceClock(SEND_WINDOW + 1);
  assert.equal((await registerStart(identifier)).status, 200);
});

test("20 parallel register/start for one identifier: exactly five are sent", async () => {
  const identifier = uniquePhone();
  const results = await Promise.all(Array.from({ length: 20 }, () => registerStart(identifier)));
  const statuses = results.map((r) => r.status).sort();
  assert.deepEqual(statuses, [...Array(SENDS).fill(200), ...Array(20 - SENDS).fill(429)], statuses.join(","));
  for (const r of results.filter((x) => x.status === 429)) assertThrottled(r);
});

test("password-reset/start: an unknown identifier and a registered one are limited identically", async () => {
  const { identifier: known } = await registerCustomer(uniqueEmail("reset-known"));
  const unknown = uniqueEmail("reset-unknown");
  for (let i = 0; i < SENDS; i++) {
    const [a, b] = [await resetStart(known), await resetStart(unknown)];
    assert.deepEqual([a.status, a.text, b.status, b.text], [202, "", 202, ""]);
  }
  const [a, b] = [await resetStart(known), await resetStart(unknown)];
  const [waitA, waitB] = [assertThrottled(a), assertThrottled(b)];
  assert.ok(Math.abs(waitA - waitB) <= 5, `${waitA} vs ${waitB}`);
  const strip = (res: CallResult) => ({ ...res.body.error, details: { ...res.body.error.details, retryAfterSeconds: 0 } });
  assert.deepEqual(strip(a), strip(b));
  // Registration codes are counted apart: the reset limit says nothing about registrations.
  assert.equal((await registerStart(unknown)).status, 200);
});

test("wrong codes on four registrations of one identifier, in parallel: exactly 15 are counted, then 429 even with the right code", async () => {
  const identifier = uniqueEmail("otp-guess");
  const registrations: { id: string; otp: string }[] = [];
  for (let i = 0; i < 4; i++) {
    const started = await registerStart(identifier);
    assert.equal(started.status, 200, started.text);
    registrations.push({ id: started.body.registrationId, otp: (await latestOtp(identifier))! });
  }
  // Five guesses per code (each code allows five): 20 in all against a cap of 15.
  const guesses = registrations.flatMap((r) => Array.from({ length: 5 }, () => verify(r.id, otherCode(r.otp))));
  const results = await Promise.all(guesses);
  const codes = results.map((r) => `${r.status} ${r.body?.error?.code}`).sort();
  assert.deepEqual(codes, [...Array(VERIFY_CAP).fill("401 auth.otpInvalid"), ...Array(20 - VERIFY_CAP).fill("429 auth.rateLimited")], codes.join(","));
  const last = registrations[3];
  assertError(await verify(last.id, last.otp), 429, "auth.rateLimited");
});
