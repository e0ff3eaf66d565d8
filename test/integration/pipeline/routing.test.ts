/** Unknown routes and wrong methods answer in the error envelope (decisions section 8). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { call } from "../support";

const ENVELOPE_KEYS = ["code", "details", "hint", "message", "remediation"];

test("unknown /v1 routes: 404 route.notFound in the envelope", async () => {
  for (const [method, path] of [
    ["GET", "/v1/no-such-route"],
    ["POST", "/v1/auth/no-such-step"],
    ["GET", "/v1/auth/devices/dev_1/nothing"],
    ["DELETE", "/v1/whatever/deep/path"],
    ["PUT", "/v1/sandbox/nope"],
  ]) {
    const res = await call(method, path, { body: method === "GET" ? undefined : {} });
    assert.equal(res.status, 404, `${method} ${path}: ${res.text}`);
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
    assert.deepEqual(Object.keys(res.body).sort(), ["correlationId", "error"]);
    assert.deepEqual(Object.keys(res.body.error).sort(), ENVELOPE_KEYS);
    assert.equal(res.body.error.code, "route.notFound");
  }
});

test("unknown route without a subscription key is still 404 route.notFound", async () => {
  const res = await call("GET", "/v1/no-such-route", { key: null });
  assert.equal(res.status, 404);
  assert.equal(res.body.error.code, "route.notFound");
});

test("wrong method: 405 route.methodNotAllowed with an Allow header", async () => {
  const cases: [string, string, string][] = [
    ["GET", "/v1/auth/start", "POST"],
    ["DELETE", "/v1/auth/login", "POST"],
    ["PUT", "/v1/auth/refresh", "POST"],
    ["POST", "/v1/auth/health", "GET"],
    ["PATCH", "/v1/auth/devices", "GET"],
    ["GET", "/v1/sandbox/partner", "PUT"],
    ["POST", "/v1/sandbox/otp", "GET"],
    ["GET", "/v1/auth/devices/dev_1/deactivate", "POST"],
  ];
  for (const [method, path, allow] of cases) {
    const res = await call(method, path, { body: method === "GET" ? undefined : {} });
    assert.equal(res.status, 405, `${method} ${path}: ${res.text}`);
    assert.equal(res.headers.get("allow"), allow, `${method} ${path}`);
    assert.deepEqual(Object.keys(res.body).sort(), ["correlationId", "error"]);
    assert.deepEqual(Object.keys(res.body.error).sort(), ENVELOPE_KEYS);
    assert.equal(res.body.error.code, "route.methodNotAllowed");
    assert.equal(res.body.correlationId, res.headers.get("x-correlation-id"));
  }
});
