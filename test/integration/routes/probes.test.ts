import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { call, eventually } from "../support";

/**
 * On the shared server: GET /livez and GET /readyz answer without a subscription
 * key; /readyz is 200 once the shipped sanctions list is loaded (a job after start), with every
 * check named. Their 503 and "not logged per call" are in test/integration/notifications/otp-email.test.ts,
 * whose server keeps its log and cannot load its sanctions list. /v1/auth/health keeps its key.
 */
describe("probes without a secret (issue 20 item 4)", () => {
  test("GET /livez: 200 {status: ok}, no key, never cached", async () => {
    const res = await call("GET", "/livez", { key: null });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { status: "ok" });
    assert.equal(res.headers.get("cache-control"), "no-store");
  });

  test("GET /readyz: 200 with each check once the sanctions list is loaded, no key", async () => {
    const res = await eventually(
      async () => {
        const r = await call("GET", "/readyz", { key: null });
        return r.status === 200 ? r : undefined;
      },
      90_000,
      "GET /readyz 200",
    );
    assert.deepEqual(res.body, { status: "ready", checks: { database: "ok", migrations: "ok", sanctionsLists: "ok", referenceRates: "not used" } });
    assert.equal(res.headers.get("cache-control"), "no-store");
  });

  test("GET /v1/auth/health still needs the subscription key (spec 5.2)", async () => {
    const res = await call("GET", "/v1/auth/health", { key: null });
    assert.equal(res.status, 401, res.text);
    assert.equal(res.body.error.code, "auth.subscriptionKeyInvalid");
  });

  test("GET /.well-known/jwks.json publishes only public RSA keys of 2048 bits or more", async () => {
    const res = await call("GET", "/.well-known/jwks.json", { key: null });
    assert.equal(res.status, 200, res.text);
    assert.ok(res.body.keys.length >= 1);
    for (const k of res.body.keys) {
      assert.deepEqual(Object.keys(k).sort(), ["alg", "e", "kid", "kty", "n", "use"]);
      assert.ok(Buffer.from(k.n, "base64url").length * 8 >= 2048);
    }
  });
});
