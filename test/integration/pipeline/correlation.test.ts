/** X-Correlation-Id over HTTP (decisions section 8): echoed when given, generated when absent. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { call } from "../support";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test("given on a success: echoed in the header", async () => {
  const id = randomUUID();
  const res = await call("GET", "/v1/auth/health", { headers: { "x-correlation-id": id } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("x-correlation-id"), id);
});

test("given on an error: echoed in the header and equal to the body's correlationId", async () => {
  const id = randomUUID();
  const res = await call("POST", "/v1/auth/start", { body: { identifier: "nope" }, headers: { "x-correlation-id": id } });
  assert.equal(res.status, 400);
  assert.equal(res.headers.get("x-correlation-id"), id);
  assert.equal(res.body.correlationId, id);
});

test("absent: a generated UUID v4, in the header and the body, fresh per request", async () => {
  const a = await call("GET", "/v1/auth/health", { key: null });
  const b = await call("GET", "/v1/auth/health", { key: null });
  assert.equal(a.status, 401);
  const id = a.headers.get("x-correlation-id") ?? "";
  assert.match(id, UUID_V4);
  assert.equal(a.body.correlationId, id);
  assert.notEqual(b.headers.get("x-correlation-id"), id);
  const ok = await call("GET", "/v1/auth/health");
  assert.match(ok.headers.get("x-correlation-id") ?? "", UUID_V4);
});

test("on pipeline answers too: 404 unknown route, 405 wrong method, 415, 400 malformed", async () => {
  const cases = [
    () => call("GET", "/v1/no-such-route", { headers: { "x-correlation-id": "journey-1" } }),
    () => call("DELETE", "/v1/auth/start", { headers: { "x-correlation-id": "journey-1" } }),
    () => call("POST", "/v1/auth/start", { rawBody: "{}", headers: { "x-correlation-id": "journey-1", "content-type": "text/plain" } }),
    () => call("POST", "/v1/auth/start", { rawBody: "{", headers: { "x-correlation-id": "journey-1", "content-type": "application/json" } }),
  ];
  for (const make of cases) {
    const res = await make();
    assert.ok(res.status >= 400, res.text);
    assert.equal(res.headers.get("x-correlation-id"), "journey-1", res.text);
    assert.equal(res.body.correlationId, "journey-1");
  }
});

test("hostile values are not reflected: replaced by a generated UUID", async () => {
  for (const hostile of ["<script>alert(1)</script>", "a".repeat(200), "id with spaces", "'; drop table sessions; --"]) {
    const res = await call("POST", "/v1/auth/start", { body: { identifier: "nope" }, headers: { "x-correlation-id": hostile } });
    const id = res.headers.get("x-correlation-id") ?? "";
    assert.match(id, UUID_V4, hostile);
    assert.equal(res.body.correlationId, id);
    assert.ok(!res.text.includes(hostile), "the hostile value is not in the body");
  }
});
