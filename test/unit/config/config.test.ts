import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { loadConfig } from "@/lib/config";

const production = {
  APP_MODE: "production",
  NEXTAUTH_SECRET: "x".repeat(40),
  SERVICE_SIGNING_KEYS: "[{}]",
  FIELD_ENCRYPTION_KEYS: "k1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
};

describe("configuration (decisions section 1)", () => {
  test("defaults: sandbox on port 3000, embedded database, documented durations", () => {
    const c = loadConfig({});
    assert.equal(c.sandbox, true);
    assert.equal(c.PORT, 3000);
    assert.equal(c.publicBaseUrl, "http://localhost:3000");
    assert.equal(c.DATABASE_URL, undefined);
    assert.equal(c.PGLITE_DIR, "./.data/pglite");
    assert.deepEqual(
      [
        c.QUOTE_TTL_SECONDS,
        c.QUOTE_OFFLINE_TTL_SECONDS,
        c.TRANSFER_TTL_SECONDS,
        c.CHALLENGE_TTL_SECONDS,
        c.ASSERTION_MAX_AGE_SECONDS,
        c.LOCKOUT_SECONDS,
        c.FUNDING_TTL_SECONDS,
        c.KYC_WEBVIEW_TTL_SECONDS,
      ],
      [60, 1800, 7200, 600, 60, 900, 1800, 1800],
    );
    assert.equal(c.OPERATOR_EMAIL, "admin@example.com");
  });

  test("every duration has an environment override", () => {
    const c = loadConfig({ QUOTE_TTL_SECONDS: "5", FAST_CHECK_DELAY_MS: "0", PORT: "4000" });
    assert.equal(c.QUOTE_TTL_SECONDS, 5);
    assert.equal(c.FAST_CHECK_DELAY_MS, 0);
    assert.equal(c.publicBaseUrl, "http://localhost:4000");
  });

  test("a bad value names the variable", () => {
    assert.throws(() => loadConfig({ PORT: "zero" }), /PORT/);
    assert.throws(() => loadConfig({ APP_MODE: "staging" }), /APP_MODE/);
  });

  test("production starts with its keys configured, and has no default operator", () => {
    const c = loadConfig(production);
    assert.equal(c.sandbox, false);
    assert.equal(c.OPERATOR_EMAIL, undefined);
  });

  for (const missing of ["NEXTAUTH_SECRET", "SERVICE_SIGNING_KEYS", "FIELD_ENCRYPTION_KEYS"] as const) {
    test(`production refuses to start without ${missing}`, () => {
      const env: Record<string, string> = { ...production };
      delete env[missing];
      assert.throws(() => loadConfig(env), new RegExp(missing));
    });
  }

  test("production refuses sandbox secrets and clock control", () => {
    assert.throws(() => loadConfig({ ...production, SANDBOX_PARTNER_API_KEY: "sandbox-demo-key" }), /SANDBOX_PARTNER_API_KEY/);
    assert.throws(() => loadConfig({ ...production, SANDBOX_CLOCK_CONTROL: "true" }), /SANDBOX_CLOCK_CONTROL/);
  });
});
