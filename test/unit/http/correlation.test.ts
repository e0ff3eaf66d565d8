/** lib/platform/http/correlation.ts: the caller's X-Correlation-Id when safe, a fresh UUID otherwise. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { correlationIdOf } from "@/lib/platform/http/correlation";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const req = (id?: string) => new Request("http://test.local/v1/auth/health", { headers: id === undefined ? {} : { "x-correlation-id": id } });

test("a given UUID is echoed unchanged", () => {
  const id = "6f1c2a7e-3b1d-4c55-9a0e-2f4b8d9e1a23";
  assert.equal(correlationIdOf(req(id)), id);
});

test("other plausible tokens are kept", () => {
  for (const id of ["journey-42", "ABC.def_1:2-3", "x", "a".repeat(128)]) assert.equal(correlationIdOf(req(id)), id);
});

test("absent: a fresh UUID v4, different each time", () => {
  const a = correlationIdOf(req());
  const b = correlationIdOf(req());
  assert.match(a, UUID_V4);
  assert.match(b, UUID_V4);
  assert.notEqual(a, b);
});

test("hostile or oversized values are replaced by a fresh UUID", () => {
  const hostile = [
    "",
    "a".repeat(129),
    "<script>alert(1)</script>",
    "id with spaces",
    "abc\tdef",
    "'; drop table sessions; --",
    "${jndi:ldap://x/a}",
    "caf\u00e9", // latin-1 byte outside the safe set
    "%0d%0aSet-Cookie:x=1",
    "a/b",
    '{"json":true}',
  ];
  for (const value of hostile) {
    const id = correlationIdOf(req(value));
    assert.notEqual(id, value, JSON.stringify(value));
    assert.match(id, UUID_V4, JSON.stringify(value));
  }
});
