/** POST /v1/sandbox/clock: the sandbox clock control the expiry tests rely on. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { call, assertError, assertIssue, serverNow } from "../support";

const advance = (body: unknown, key?: string | null) => call("POST", "/v1/sandbox/clock", { body, key });

test("advancing moves the server clock forward by that many seconds", async () => {
  const before = await serverNow();
  const res = await advance({ advanceSeconds: 120 });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(Object.keys(res.body).sort(), ["now", "offsetSeconds"]);
  assert.equal(typeof res.body.offsetSeconds, "number");
  assert.ok(res.body.offsetSeconds >= 120);
  const moved = (Date.parse(res.body.now) - before.getTime()) / 1000;
  assert.ok(moved >= 120 && moved < 150, `moved ${moved}s`);
  const after = await serverNow();
  assert.ok(after.getTime() >= Date.parse(res.body.now));
});

test("zero is allowed and does not move the clock back", async () => {
  const before = await serverNow();
  const res = await advance({ advanceSeconds: 0 });
  assert.equal(res.status, 200, res.text);
  assert.ok(Date.parse(res.body.now) >= before.getTime());
});

test("negative, fractional, too large or missing: 400 validation", async () => {
  for (const advanceSeconds of [-1, 1.5, 90 * 86400 + 1, "60"]) {
    const res = await advance({ advanceSeconds });
    assertError(res, 400, "validation.fieldInvalid");
    assertIssue(res, "advanceSeconds", "validation.fieldInvalid");
  }
  const missing = await advance({});
  assertError(missing, 400, "validation.fieldMissing");
  assertIssue(missing, "advanceSeconds", "validation.fieldMissing");
});

test("needs the subscription key", async () => {
  assertError(await advance({ advanceSeconds: 1 }, null), 401, "auth.subscriptionKeyInvalid");
});
