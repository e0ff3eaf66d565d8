/** Login: POST /v1/auth/start and /v1/auth/login, failures and lockout (decisions section 3). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertTokenResponse } from "./helpers";
import { PASSWORD, advanceClock, call, loginCustomer, registerCustomer, uniqueEmail, assertError, assertIssue } from "../support";

const startLogin = (identifier: string) => call("POST", "/v1/auth/start", { body: { identifier } });
const login = (loginAttemptId: string, password: string) => call("POST", "/v1/auth/login", { body: { loginAttemptId, password } });

test("start: 200 {loginAttemptId, nextStep PASSWORD_REQUIRED}, the same shape for unknown identifiers", async () => {
  const { identifier } = await registerCustomer(uniqueEmail("known"));
  const known = await startLogin(identifier);
  const unknown = await startLogin(uniqueEmail("nobody"));
  const unknownPhone = await startLogin("+33612345670");
  for (const res of [known, unknown, unknownPhone]) {
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ["loginAttemptId", "nextStep"]);
    assert.equal(res.body.nextStep, "PASSWORD_REQUIRED");
    assert.equal(typeof res.body.loginAttemptId, "string");
  }
  assert.notEqual(known.body.loginAttemptId, unknown.body.loginAttemptId);
  // Same id format: nothing tells a known identifier from an unknown one.
  assert.equal(known.body.loginAttemptId.length, unknown.body.loginAttemptId.length);
  assert.equal(known.body.loginAttemptId.split("_")[0], unknown.body.loginAttemptId.split("_")[0]);
});

test("start: invalid identifier 400 auth.identifierInvalid", async () => {
  for (const identifier of ["nope", "+12"]) {
    const res = await startLogin(identifier);
    assertError(res, 400, "auth.identifierInvalid");
    assertIssue(res, "identifier", "auth.identifierInvalid");
  }
});

test("login happy path: 200 token response", async () => {
  const { identifier, tokens } = await registerCustomer(uniqueEmail("happy"));
  const res = await loginCustomer(identifier);
  assertTokenResponse(res, 200);
  assert.equal(res.body.subscriptionId, tokens.subscriptionId);
  assert.notEqual(res.body.accessToken, tokens.accessToken);
  const me = await call("GET", "/v1/auth/devices", { token: res.body.accessToken });
  assert.equal(me.status, 200, me.text);
});

test("wrong password: 401 auth.credentialMismatch", async () => {
  const { identifier } = await registerCustomer(uniqueEmail("wrongpw"));
  const res = await loginCustomer(identifier, `${PASSWORD}!`);
  const error = assertError(res, 401, "auth.credentialMismatch");
  assert.equal(res.headers.get("retry-after"), null);
  assert.doesNotMatch(JSON.stringify(error), /accessToken|refreshToken/);
});

test("unknown identifier: 401 auth.credentialMismatch, same body as a wrong password (but the correlation id)", async () => {
  const { identifier } = await registerCustomer(uniqueEmail("cmp"));
  const wrong = await loginCustomer(identifier, "wrong password 123");
  const unknown = await loginCustomer(uniqueEmail("ghost"), "wrong password 123");
  assertError(unknown, 401, "auth.credentialMismatch");
  assert.deepEqual(unknown.body.error, wrong.body.error);
});

test("the identifier is case-insensitive for emails (start and login)", async () => {
  const identifier = uniqueEmail("Mixed.Case").replace("example.com", "Example.COM");
  await registerCustomer(identifier);
  assertTokenResponse(await loginCustomer(identifier.toLowerCase()), 200);
  assertTokenResponse(await loginCustomer(identifier.toUpperCase()), 200);
  assertTokenResponse(await loginCustomer(`  ${identifier}  `), 200);
});

test("five failures, then 429 auth.rateLimited with Retry-After, even with the right password; the clock +901 s ends it", async () => {
  const { identifier } = await registerCustomer(uniqueEmail("lock"));
  const started = await startLogin(identifier);
  for (let i = 0; i < 5; i++) assertError(await login(started.body.loginAttemptId, `bad password ${i}!!`), 401, "auth.credentialMismatch");

  const locked = await login(started.body.loginAttemptId, PASSWORD);
  const error = assertError(locked, 429, "auth.rateLimited");
  const retryAfter = locked.headers.get("retry-after");
  assert.match(retryAfter ?? "", /^[1-9]\d*$/, `Retry-After must be integer seconds > 0, got ${retryAfter}`);
  assert.ok(Number(retryAfter) <= 900, `at most the 15-minute window, got ${retryAfter}`);
  assert.equal(error.details.retryAfterSeconds, Number(retryAfter));
  // A new login attempt does not get around it, nor does another spelling of the identifier.
  assertError(await loginCustomer(identifier.toUpperCase()), 429, "auth.rateLimited");

  // Another identifier is not affected.
  const other = await registerCustomer(uniqueEmail("notlocked"));
  assertTokenResponse(await loginCustomer(other.identifier), 200);

  await advanceClock(901);
  assertTokenResponse(await loginCustomer(identifier), 200);
});

test("four failures do not lock; a success clears the count", async () => {
  const { identifier } = await registerCustomer(uniqueEmail("four"));
  for (let i = 0; i < 4; i++) assertError(await loginCustomer(identifier, "not the password"), 401, "auth.credentialMismatch");
  assertTokenResponse(await loginCustomer(identifier), 200);
  // Cleared: four more failures still do not lock.
  for (let i = 0; i < 4; i++) assertError(await loginCustomer(identifier, "not the password"), 401, "auth.credentialMismatch");
  assertTokenResponse(await loginCustomer(identifier), 200);
});

test("unknown identifiers lock the same way (no existence oracle)", async () => {
  const ghost = uniqueEmail("ghostlock");
  for (let i = 0; i < 5; i++) assertError(await loginCustomer(ghost, "whatever password"), 401, "auth.credentialMismatch");
  const locked = await loginCustomer(ghost, "whatever password");
  assertError(locked, 429, "auth.rateLimited");
  assert.match(locked.headers.get("retry-after") ?? "", /^[1-9]\d*$/);
});

test("a login attempt is single use, and an unknown one is refused", async () => {
  const { identifier } = await registerCustomer(uniqueEmail("single"));
  const started = await startLogin(identifier);
  assertTokenResponse(await login(started.body.loginAttemptId, PASSWORD), 200);
  assertError(await login(started.body.loginAttemptId, PASSWORD), 401, "auth.sessionExpired");
  assertError(await login("la_doesnotexist", PASSWORD), 401, "auth.sessionExpired");
});

test("login body: missing password 400 validation.fieldMissing on password", async () => {
  const res = await call("POST", "/v1/auth/login", { body: { loginAttemptId: "la_x" } });
  assertError(res, 400, "validation.fieldMissing");
  assertIssue(res, "password", "validation.fieldMissing");
});

test("parallel wrong passwords: at most five are checked, the rest are 429 (lockout holds under concurrency)", async () => {
  const { identifier } = await registerCustomer(uniqueEmail("parallel"));
  const attempts = await Promise.all(Array.from({ length: 12 }, () => startLogin(identifier)));
  const results = await Promise.all(attempts.map((a, i) => login(a.body.loginAttemptId, `wrong password ${i}`)));
  const statuses = results.map((r) => r.status).sort();
  assert.deepEqual(statuses, [...Array(5).fill(401), ...Array(7).fill(429)], statuses.join(","));
});
