/** Password reset: POST /v1/auth/password-reset/{start,complete} (decisions section 3). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertTokenResponse, otherCode, outbox } from "./helpers";
import { PASSWORD, advanceClock, call, latestOtp, loginCustomer, registerCustomer, uniqueEmail, assertError, assertIssue, assertIssues } from "../support";

const NEW_PASSWORD = "a brand new passphrase";
const resetStart = (identifier: string) => call("POST", "/v1/auth/password-reset/start", { body: { identifier } });
const resetComplete = (identifier: string, otp: string, newPassword = NEW_PASSWORD) =>
  call("POST", "/v1/auth/password-reset/complete", { body: { identifier, otp, newPassword } });

test("start for an unknown identifier: 202, empty body, and no message is sent", async () => {
  const ghost = uniqueEmail("ghost");
  const res = await resetStart(ghost);
  assert.equal(res.status, 202, res.text);
  assert.equal(res.text, "");
  assertError(await outbox(ghost), 404, "otp.notFound");
});

test("start for a known identifier: the same 202, and a PASSWORD_RESET code is sent", async () => {
  const { identifier } = await registerCustomer(uniqueEmail("known"));
  const res = await resetStart(identifier);
  assert.equal(res.status, 202, res.text);
  assert.equal(res.text, "");
  const message = await outbox(identifier);
  assert.equal(message.status, 200, message.text);
  assert.equal(message.body.purpose, "PASSWORD_RESET");
  assert.match(message.body.otp, /^\d{6}$/);
});

test("complete: 200; old password fails, new one works, existing sessions are revoked", async () => {
  const { identifier, tokens } = await registerCustomer(uniqueEmail("reset"));
  const other = await loginCustomer(identifier);
  assertTokenResponse(other, 200);
  await resetStart(identifier);
  const otp = (await latestOtp(identifier))!;

  const res = await resetComplete(identifier, otp);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, { status: "PASSWORD_RESET" });

  assertError(await loginCustomer(identifier, PASSWORD), 401, "auth.credentialMismatch");
  assertTokenResponse(await loginCustomer(identifier, NEW_PASSWORD), 200);

  for (const accessToken of [tokens.accessToken, other.body.accessToken]) {
    assertError(await call("GET", "/v1/auth/devices", { token: accessToken }), 401, "auth.tokenRevoked");
  }
  for (const refreshToken of [tokens.refreshToken, other.body.refreshToken]) {
    assertError(await call("POST", "/v1/auth/refresh", { body: { refreshToken } }), 401, "auth.tokenRevoked");
  }
});

test("the identifier is matched case-insensitively", async () => {
  const { identifier } = await registerCustomer(uniqueEmail("case"));
  assert.equal((await resetStart(identifier.toUpperCase())).status, 202);
  const otp = (await latestOtp(identifier))!;
  assert.equal((await resetComplete(identifier.toUpperCase(), otp)).status, 200);
  assertTokenResponse(await loginCustomer(identifier, NEW_PASSWORD), 200);
});

test("wrong code: 401 auth.otpInvalid and the password is unchanged", async () => {
  const { identifier } = await registerCustomer(uniqueEmail("wrong"));
  await resetStart(identifier);
  const otp = (await latestOtp(identifier))!;
  assertError(await resetComplete(identifier, otherCode(otp)), 401, "auth.otpInvalid");
  assertTokenResponse(await loginCustomer(identifier, PASSWORD), 200);
  // The right code still works after one wrong try.
  assert.equal((await resetComplete(identifier, otp)).status, 200);
});

test("a code is single use", async () => {
  const { identifier } = await registerCustomer(uniqueEmail("once"));
  await resetStart(identifier);
  const otp = (await latestOtp(identifier))!;
  assert.equal((await resetComplete(identifier, otp)).status, 200);
  assertError(await resetComplete(identifier, otp, "yet another passphrase"), 401, "auth.otpInvalid");
  assertTokenResponse(await loginCustomer(identifier, NEW_PASSWORD), 200);
});

test("five wrong codes, then 429 auth.rateLimited even with the right code", async () => {
  const { identifier } = await registerCustomer(uniqueEmail("five"));
  await resetStart(identifier);
  const otp = (await latestOtp(identifier))!;
  for (let i = 0; i < 5; i++) assertError(await resetComplete(identifier, otherCode(otp)), 401, "auth.otpInvalid");
  assertError(await resetComplete(identifier, otp), 429, "auth.rateLimited");
  assertTokenResponse(await loginCustomer(identifier, PASSWORD), 200);
});

test("expired code (clock +601 s): 401 auth.otpExpired", async () => {
  const { identifier } = await registerCustomer(uniqueEmail("late"));
  await resetStart(identifier);
  const otp = (await latestOtp(identifier))!;
  await advanceClock(601);
  assertError(await resetComplete(identifier, otp), 401, "auth.otpExpired");
});

test("a code for an identifier that never asked for one: 401 auth.otpInvalid", async () => {
  const { identifier } = await registerCustomer(uniqueEmail("noreq"));
  assertError(await resetComplete(identifier, "123456"), 401, "auth.otpInvalid");
  assertError(await resetComplete(uniqueEmail("ghost2"), "123456"), 401, "auth.otpInvalid");
});

test("weak new password: 400 validation.fieldInvalid on newPassword, nothing changes", async () => {
  const { identifier } = await registerCustomer(uniqueEmail("weak"));
  await resetStart(identifier);
  const otp = (await latestOtp(identifier))!;
  const res = await resetComplete(identifier, otp, "short pass!"); // 11 characters
  assertError(res, 400, "validation.fieldInvalid");
  assertIssue(res, "newPassword", "validation.fieldInvalid");
  assertTokenResponse(await loginCustomer(identifier, PASSWORD), 200);
  // The code was not spent by the refused call.
  assert.equal((await resetComplete(identifier, otp)).status, 200);
});

test("invalid identifier: 400 auth.identifierInvalid at start and complete", async () => {
  assertError(await resetStart("not an identifier"), 400, "auth.identifierInvalid");
  assertError(await resetComplete("not an identifier", "123456"), 400, "auth.identifierInvalid");
});

test("a reset lifts a login lockout", async () => {
  const { identifier } = await registerCustomer(uniqueEmail("unlock"));
  for (let i = 0; i < 5; i++) await loginCustomer(identifier, "bad password!!");
  assertError(await loginCustomer(identifier, PASSWORD), 429, "auth.rateLimited");
  await resetStart(identifier);
  assert.equal((await resetComplete(identifier, (await latestOtp(identifier))!)).status, 200);
  assertTokenResponse(await loginCustomer(identifier, NEW_PASSWORD), 200);
});

test("missing fields: 400 validation.fieldMissing on each", async () => {
  const res = await call("POST", "/v1/auth/password-reset/complete", { body: { identifier: uniqueEmail() } });
  assertIssues(res, "validation.fieldMissing", [
    { field: "otp", code: "validation.fieldMissing" },
    { field: "newPassword", code: "validation.fieldMissing" },
  ]);
});
