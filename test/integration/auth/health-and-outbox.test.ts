/** GET /v1/auth/health (spec 5.2) and the sandbox OTP outbox GET /v1/sandbox/otp (decisions 3). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { outbox } from "./helpers";
import { call, uniqueEmail, assertError, assertIssue } from "../support";

test("health with the subscription key: 200 {status ok, service, timestamp}", async () => {
  const res = await call("GET", "/v1/auth/health");
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(Object.keys(res.body).sort(), ["service", "status", "timestamp"]);
  assert.equal(res.body.status, "ok");
  assert.equal(typeof res.body.service, "string");
  assert.ok(res.body.service.length > 0);
  assert.equal(new Date(res.body.timestamp).toISOString(), res.body.timestamp, "RFC 3339 UTC timestamp");
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
});

test("health without or with an unknown subscription key: 401 auth.subscriptionKeyInvalid", async () => {
  assertError(await call("GET", "/v1/auth/health", { key: null }), 401, "auth.subscriptionKeyInvalid");
  assertError(await call("GET", "/v1/auth/health", { key: "sandbox-demo-key-x" }), 401, "auth.subscriptionKeyInvalid");
  assertError(await call("GET", "/v1/auth/health", { key: "x".repeat(5000) }), 401, "auth.subscriptionKeyInvalid");
});

test("health: the key header is case-insensitive by name, not by value", async () => {
  const ok = await call("GET", "/v1/auth/health", { key: null, headers: { "OCP-APIM-SUBSCRIPTION-KEY": "sandbox-demo-key" } });
  assert.equal(ok.status, 200, ok.text);
  assertError(await call("GET", "/v1/auth/health", { key: "SANDBOX-DEMO-KEY" }), 401, "auth.subscriptionKeyInvalid");
});

test("outbox: an identifier with no message is 404 otp.notFound", async () => {
  assertError(await outbox(uniqueEmail("silent")), 404, "otp.notFound");
  assertError(await outbox("+33612345679"), 404, "otp.notFound");
});

test("outbox: invalid identifier 400 auth.identifierInvalid; missing identifier 400 validation.fieldMissing on query.identifier", async () => {
  assertError(await outbox("not an identifier"), 400, "auth.identifierInvalid");
  const missing = await call("GET", "/v1/sandbox/otp");
  assertError(missing, 400, "validation.fieldMissing");
  assertIssue(missing, "query.identifier", "validation.fieldMissing");
});

test("outbox: needs the subscription key", async () => {
  assertError(await call("GET", `/v1/sandbox/otp?identifier=${encodeURIComponent(uniqueEmail())}`, { key: null }), 401, "auth.subscriptionKeyInvalid");
});

test("outbox: returns the latest message for the normalised identifier", async () => {
  const identifier = uniqueEmail("latest");
  const a = await call("POST", "/v1/auth/register/start", { body: { identifier } });
  const first = await outbox(identifier);
  const b = await call("POST", "/v1/auth/register/start", { body: { identifier } });
  const second = await outbox(identifier.toUpperCase());
  assert.equal(second.status, 200, second.text);
  assert.equal(second.body.identifier, identifier);
  assert.equal(second.body.purpose, "REGISTRATION");
  assert.match(second.body.otp, /^\d{6}$/);
  assert.ok(second.body.createdAt >= first.body.createdAt);
  // It is the second registration's code, not the first one's.
  const verified = await call("POST", "/v1/auth/register/verify-otp", { body: { registrationId: b.body.registrationId, otp: second.body.otp } });
  assert.equal(verified.status, 200, verified.text);
  const older = await call("POST", "/v1/auth/register/verify-otp", { body: { registrationId: a.body.registrationId, otp: first.body.otp } });
  assert.equal(older.status, 200, older.text);
});
