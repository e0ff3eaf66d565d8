/** Registration: POST /v1/auth/register/{start,verify-otp,set-password} (decisions section 3). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertTokenResponse, otherCode, outbox } from "./helpers";
import {
  PASSWORD,
  advanceClock,
  call,
  latestOtp,
  loginCustomer,
  registerCustomer,
  uniqueEmail,
  assertError,
  assertIssue,
  assertIssues,
  serverNow,
} from "../support";

const start = (identifier: string) => call("POST", "/v1/auth/register/start", { body: { identifier } });
const verify = (registrationId: string, otp: string) => call("POST", "/v1/auth/register/verify-otp", { body: { registrationId, otp } });
const setPassword = (registrationId: string, password: string) => call("POST", "/v1/auth/register/set-password", { body: { registrationId, password } });

/** A unique French mobile number in E.164 (+33 61x xx xx xx). */
const uniqueFrMobile = () => `+3361${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;

test("happy path: start 200, verify 200, set-password 201 with the token response", async () => {
  const identifier = uniqueEmail("reg");
  const before = await serverNow();
  const started = await start(identifier);
  assert.equal(started.status, 200, started.text);
  assert.deepEqual(Object.keys(started.body).sort(), ["nextStep", "otpExpiresAt", "registrationId"]);
  assert.equal(started.body.nextStep, "VERIFY_OTP");
  assert.equal(typeof started.body.registrationId, "string");
  const ttl = (Date.parse(started.body.otpExpiresAt) - before.getTime()) / 1000;
  assert.ok(ttl > 590 && ttl <= 610, `OTP lives 10 minutes, got ${ttl}s`);

  const message = await outbox(identifier);
  assert.equal(message.status, 200, message.text);
  assert.deepEqual(Object.keys(message.body).sort(), ["createdAt", "identifier", "otp", "purpose"]);
  assert.equal(message.body.identifier, identifier);
  assert.equal(message.body.purpose, "REGISTRATION");
  assert.match(message.body.otp, /^\d{6}$/);

  const verified = await verify(started.body.registrationId, message.body.otp);
  assert.equal(verified.status, 200, verified.text);
  assert.deepEqual(verified.body, { registrationId: started.body.registrationId, nextStep: "SET_PASSWORD" });

  const done = await setPassword(started.body.registrationId, PASSWORD);
  assertTokenResponse(done, 201, "COMPLETE_PROFILE");

  // The tokens work, and the password logs in.
  const devices = await call("GET", "/v1/auth/devices", { token: done.body.accessToken });
  assert.equal(devices.status, 200, devices.text);
  assert.deepEqual(devices.body, { items: [] });
  const login = await loginCustomer(identifier);
  assertTokenResponse(login, 200);
  assert.equal(login.body.subscriptionId, done.body.subscriptionId);
});

test("phone number in E.164 registers; the identifier is normalised", async () => {
  const phone = uniqueFrMobile();
  const spaced = `${phone.slice(0, 3)} ${phone.slice(3, 4)} ${phone.slice(4, 6)} ${phone.slice(6, 8)} ${phone.slice(8, 10)} ${phone.slice(10)}`; // +33 6 12 34 56 78
  const started = await start(spaced);
  assert.equal(started.status, 200, started.text);
  const message = await outbox(phone);
  assert.equal(message.status, 200, message.text);
  assert.equal(message.body.identifier, phone);
  assert.match(message.body.otp, /^\d{6}$/);
  assert.equal((await verify(started.body.registrationId, message.body.otp)).status, 200);
  assertTokenResponse(await setPassword(started.body.registrationId, PASSWORD), 201, "COMPLETE_PROFILE");
  assertTokenResponse(await loginCustomer(phone), 200);
});

test("invalid identifiers: 400 auth.identifierInvalid on field identifier", async () => {
  const bad = [
    "not-an-email",
    "ada@",
    "@example.com",
    "ada example@example.com",
    `${"a".repeat(250)}@example.com`,
    "+1", // phone too short
    "+999123456789", // no such country code
    "+44 123", // invalid UK number
    "+1415555abcd",
    "14155550123", // phone without the +
  ];
  for (const identifier of bad) {
    const res = await start(identifier);
    assertError(res, 400, "auth.identifierInvalid");
    assertIssue(res, "identifier", "auth.identifierInvalid");
  }
});

test("empty or missing identifier is a validation error, not auth.identifierInvalid", async () => {
  const empty = await start("");
  assertError(empty, 400, "validation.fieldInvalid");
  assertIssue(empty, "identifier", "validation.fieldInvalid");
  const missing = await call("POST", "/v1/auth/register/start", { body: {} });
  assertError(missing, 400, "validation.fieldMissing");
  assertIssue(missing, "identifier", "validation.fieldMissing");
});

test("already-registered identifier: same answer at start, message without code, verify fails", async () => {
  const { identifier } = await registerCustomer(uniqueEmail("dup"));
  const fresh = await start(uniqueEmail("fresh"));
  // Upper case: the check is on the normalised identifier.
  const again = await start(identifier.toUpperCase());
  assert.equal(again.status, fresh.status);
  assert.equal(again.status, 200, again.text);
  assert.deepEqual(Object.keys(again.body).sort(), Object.keys(fresh.body).sort());
  assert.equal(again.body.nextStep, "VERIFY_OTP");
  assert.notEqual(again.body.registrationId, fresh.body.registrationId);
  assert.equal(Math.round((Date.parse(again.body.otpExpiresAt) - Date.parse(fresh.body.otpExpiresAt)) / 60_000), 0, "both codes expire 10 minutes from now");

  const message = await outbox(identifier);
  assert.equal(message.status, 200, message.text);
  assert.equal(message.body.purpose, "REGISTRATION");
  assert.equal(message.body.otp, null);

  for (const guess of ["000000", "123456", "999999"]) {
    assertError(await verify(again.body.registrationId, guess), 401, "auth.otpInvalid");
  }
  assertError(await setPassword(again.body.registrationId, PASSWORD), 401, "auth.otpInvalid");
  // The existing account is untouched.
  assertTokenResponse(await loginCustomer(identifier), 200);
});

test("wrong OTP: 401 auth.otpInvalid, and the right one still works afterwards", async () => {
  const identifier = uniqueEmail("wrong");
  const started = await start(identifier);
  const otp = (await latestOtp(identifier))!;
  assertError(await verify(started.body.registrationId, otherCode(otp)), 401, "auth.otpInvalid");
  assertError(await verify(started.body.registrationId, "abc"), 401, "auth.otpInvalid");
  const ok = await verify(started.body.registrationId, otp);
  assert.equal(ok.status, 200, ok.text);
});

test("five wrong codes, then 429 auth.rateLimited even with the right code", async () => {
  const identifier = uniqueEmail("otp5");
  const started = await start(identifier);
  const otp = (await latestOtp(identifier))!;
  for (let i = 0; i < 5; i++) assertError(await verify(started.body.registrationId, otherCode(otp)), 401, "auth.otpInvalid");
  assertError(await verify(started.body.registrationId, otp), 429, "auth.rateLimited");
  assertError(await verify(started.body.registrationId, otherCode(otp)), 429, "auth.rateLimited");
  assertError(await setPassword(started.body.registrationId, PASSWORD), 401, "auth.otpInvalid");

  // A new registration sends a new code, which works.
  const retry = await start(identifier);
  const otp2 = (await latestOtp(identifier))!;
  assert.equal((await verify(retry.body.registrationId, otp2)).status, 200);
});

test("four wrong codes still leave the right one usable", async () => {
  const identifier = uniqueEmail("otp4");
  const started = await start(identifier);
  const otp = (await latestOtp(identifier))!;
  for (let i = 0; i < 4; i++) assertError(await verify(started.body.registrationId, otherCode(otp)), 401, "auth.otpInvalid");
  assert.equal((await verify(started.body.registrationId, otp)).status, 200);
});

test("expired OTP (clock +601 s): 401 auth.otpExpired", async () => {
  const identifier = uniqueEmail("late");
  const started = await start(identifier);
  const otp = (await latestOtp(identifier))!;
  await advanceClock(601);
  assertError(await verify(started.body.registrationId, otp), 401, "auth.otpExpired");
  assertError(await setPassword(started.body.registrationId, PASSWORD), 401, "auth.otpInvalid");
});

test("a verified registration lives 30 minutes: set-password after that is 401 auth.sessionExpired", async () => {
  const identifier = uniqueEmail("slow");
  const started = await start(identifier);
  assert.equal((await verify(started.body.registrationId, (await latestOtp(identifier))!)).status, 200);
  await advanceClock(1801);
  assertError(await setPassword(started.body.registrationId, PASSWORD), 401, "auth.sessionExpired");
  assertError(await loginCustomer(identifier), 401, "auth.credentialMismatch");
});

test("weak password (11 characters): 400 validation.fieldInvalid on password; 12 characters is enough", async () => {
  const identifier = uniqueEmail("weak");
  const started = await start(identifier);
  await verify(started.body.registrationId, (await latestOtp(identifier))!);
  const weak = await setPassword(started.body.registrationId, "abcdefghijk");
  assertError(weak, 400, "validation.fieldInvalid");
  assertIssue(weak, "password", "validation.fieldInvalid");
  assert.equal(weak.body.error.details.issues.length, 1);
  // Characters, not bytes: 11 emoji are still too short.
  assertError(await setPassword(started.body.registrationId, "🔒".repeat(11)), 400, "validation.fieldInvalid");
  assertTokenResponse(await setPassword(started.body.registrationId, "abcdefghijkl"), 201, "COMPLETE_PROFILE");
  assertTokenResponse(await loginCustomer(identifier, "abcdefghijkl"), 200);
});

test("set-password before verify-otp is refused (401 auth.otpInvalid)", async () => {
  const identifier = uniqueEmail("early");
  const started = await start(identifier);
  assertError(await setPassword(started.body.registrationId, PASSWORD), 401, "auth.otpInvalid");
  // No account was created.
  assertError(await loginCustomer(identifier), 401, "auth.credentialMismatch");
});

test("a registration completes once: second verify and second set-password refused", async () => {
  const identifier = uniqueEmail("once");
  const started = await start(identifier);
  const otp = (await latestOtp(identifier))!;
  assert.equal((await verify(started.body.registrationId, otp)).status, 200);
  assertError(await verify(started.body.registrationId, otp), 401, "auth.otpInvalid");
  assertTokenResponse(await setPassword(started.body.registrationId, PASSWORD), 201);
  assertError(await setPassword(started.body.registrationId, "another password 123"), 401, "auth.otpInvalid");
  assertTokenResponse(await loginCustomer(identifier, PASSWORD), 200);
});

test("set-password retried after it completed answers as the first success did: 201, the same subscription, tokens that work (issue 36 item 6)", async () => {
  const identifier = uniqueEmail("retry");
  const started = await start(identifier);
  assert.equal((await verify(started.body.registrationId, (await latestOtp(identifier))!)).status, 200);
  const first = await setPassword(started.body.registrationId, PASSWORD);
  assertTokenResponse(first, 201, "COMPLETE_PROFILE");
  // The first answer was lost: the client sends the same request again.
  const again = await setPassword(started.body.registrationId, PASSWORD);
  assertTokenResponse(again, 201, "COMPLETE_PROFILE");
  assert.equal(again.body.subscriptionId, first.body.subscriptionId);
  const devices = await call("GET", "/v1/auth/devices", { token: again.body.accessToken });
  assert.equal(devices.status, 200, devices.text);
  // Only with the password it set.
  assertError(await setPassword(started.body.registrationId, "not the password it set"), 401, "auth.otpInvalid");
});

test("two registrations of one new identifier: the second cannot complete, and it is not a 500", async () => {
  const identifier = uniqueEmail("race");
  const a = await start(identifier);
  const otpA = (await latestOtp(identifier))!;
  const b = await start(identifier);
  const otpB = (await latestOtp(identifier))!;
  assert.equal((await verify(a.body.registrationId, otpA)).status, 200);
  assert.equal((await verify(b.body.registrationId, otpB)).status, 200);
  assertTokenResponse(await setPassword(a.body.registrationId, PASSWORD), 201);
  const second = await setPassword(b.body.registrationId, "a different password");
  assertError(second, 401, "auth.otpInvalid");
  // The first account keeps its password.
  assertTokenResponse(await loginCustomer(identifier, PASSWORD), 200);
  assertError(await loginCustomer(identifier, "a different password"), 401, "auth.credentialMismatch");
});

test("unknown registrationId: 404 registration.notFound", async () => {
  assertError(await verify("reg_doesnotexist", "123456"), 404, "registration.notFound");
  assertError(await setPassword("reg_doesnotexist", PASSWORD), 404, "registration.notFound");
});

test("missing fields: 400 validation.fieldMissing with each field", async () => {
  const res = await call("POST", "/v1/auth/register/verify-otp", { body: {} });
  assertIssues(res, "validation.fieldMissing", [
    { field: "registrationId", code: "validation.fieldMissing" },
    { field: "otp", code: "validation.fieldMissing" },
  ]);
  const sp = await call("POST", "/v1/auth/register/set-password", { body: { registrationId: "reg_x" } });
  assertError(sp, 400, "validation.fieldMissing");
  assertIssue(sp, "password", "validation.fieldMissing");
});

test("registration needs the subscription key", async () => {
  assertError(await call("POST", "/v1/auth/register/start", { key: null, body: { identifier: uniqueEmail() } }), 401, "auth.subscriptionKeyInvalid");
  assertError(await call("POST", "/v1/auth/register/start", { key: "wrong-key", body: { identifier: uniqueEmail() } }), 401, "auth.subscriptionKeyInvalid");
});
