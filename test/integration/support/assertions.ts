/** Assertions on API responses shared by the integration tests (decisions 8: the error envelope). */
import assert from "node:assert/strict";
import { errorOf, type CallResult } from "./client";

export interface Issue {
  field: string;
  code: string;
}

/** Asserts status and error code, the exact envelope and error keys, and the correlation header; returns the error. */
export function assertError(res: CallResult, status: number, code: string) {
  assert.ok(res.status < 500 || status >= 500, `server error ${res.status}: ${res.text}`);
  assert.equal(res.status, status, `expected ${status} ${code}, got ${res.status}: ${res.text}`);
  const error = errorOf(res);
  assert.equal(error.code, code, res.text);
  assert.deepEqual(Object.keys(res.body).sort(), ["correlationId", "error"], res.text);
  assert.deepEqual(Object.keys(error).sort(), ["code", "details", "hint", "message", "remediation"], res.text);
  assert.equal(res.body.correlationId, res.headers.get("x-correlation-id"));
  return error;
}

/** Asserts a 400 whose summary code is `code` and whose issues are exactly `expected` (field and code, any order). */
export function assertIssues(res: CallResult, code: string, expected: Issue[]) {
  const error = assertError(res, 400, code);
  const issues: Issue[] = error.details?.issues ?? [];
  const got = issues.map((i) => `${i.field} ${i.code}`).sort();
  assert.deepEqual(got, expected.map((i) => `${i.field} ${i.code}`).sort(), res.text);
  return error;
}

/** A 400 with one validation issue whose code is also the summary code. */
export function assertIssue(res: CallResult, field: string, code: string) {
  return assertIssues(res, code, [{ field, code }]);
}

/** Walks a JSON value and fails if any object has the key (screening evidence must never leak). */
export function assertNoKeyDeep(value: unknown, key: string, where = "response"): void {
  const walk = (v: unknown, path: string) => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
    else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        assert.notEqual(k, key, `${where} carries ${path}.${k}`);
        walk(x, `${path}.${k}`);
      }
    }
  };
  walk(value, "$");
}

/** Fails if `secret` appears anywhere in the raw response text. */
export function assertNotLeaked(res: CallResult, secret: string, where: string) {
  assert.ok(!res.text.includes(secret), `${where} leaks the full identifier: ${res.text}`);
}

/** before + offsetMs <= actual <= after + offsetMs (bounds from `timed`). */
export function assertWithin(actual: string | null | undefined, before: number, after: number, offsetMs: number, what: string) {
  assert.ok(actual, `${what} missing`);
  const a = Date.parse(actual);
  assert.ok(
    a >= before + offsetMs && a <= after + offsetMs,
    `${what} ${actual} not within [${new Date(before + offsetMs).toISOString()}, ${new Date(after + offsetMs).toISOString()}]`,
  );
}
