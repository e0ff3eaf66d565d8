import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { loadConfig } from "@/lib/platform/config";
import { productionEnv as production } from "../../support/production-env";

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
    // Money leaving blocked:sanctions always needs a second operator.
    assert.throws(() => loadConfig({ DUAL_CONTROL_OFF: "screeningCase.releaseUnderLicence" }), /never off: screeningCase\.releaseUnderLicence/);
    assert.deepEqual(loadConfig({ DUAL_CONTROL_OFF: "bankCredit.match" }).DUAL_CONTROL_OFF, ["bankCredit.match"]);
    // A false positive is now a decision of the command screeningCase.decide: the old name still takes it out.
    assert.deepEqual(loadConfig({ DUAL_CONTROL_OFF: "screeningCase.falsePositive" }).DUAL_CONTROL_OFF, ["screeningCase.decide"]);
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

describe("throttle settings (issue 9)", () => {
  test("per-address limits are strict in production and generous in sandbox, and configurable in both", () => {
    const prod = loadConfig(production);
    assert.equal(prod.OTP_SEND_MAX_PER_ADDRESS, 30);
    assert.equal(prod.CONSOLE_LOGIN_MAX_FAILURES_PER_ADDRESS, 50);
    const sandbox = loadConfig({});
    assert.equal(sandbox.OTP_SEND_MAX_PER_ADDRESS, 10_000);
    assert.equal(sandbox.CONSOLE_LOGIN_MAX_FAILURES_PER_ADDRESS, 500);
    const set = loadConfig({ ...production, OTP_SEND_MAX_PER_ADDRESS: "200", CONSOLE_LOGIN_MAX_FAILURES_PER_ADDRESS: "7", TRUSTED_PROXY_HOPS: "1" });
    assert.deepEqual([set.OTP_SEND_MAX_PER_ADDRESS, set.CONSOLE_LOGIN_MAX_FAILURES_PER_ADDRESS, set.TRUSTED_PROXY_HOPS], [200, 7, 1]);
  });

  test("per-identifier defaults: 5 OTP messages an hour, 15 wrong codes an hour, 5 console failures in 15 minutes; no proxy trusted", () => {
    const c = loadConfig({});
    assert.deepEqual(
      [c.OTP_SEND_MAX_PER_IDENTIFIER, c.OTP_SEND_IDENTIFIER_WINDOW_SECONDS, c.OTP_VERIFY_MAX_FAILURES_PER_IDENTIFIER, c.CONSOLE_LOGIN_MAX_FAILURES],
      [5, 3600, 15, 5],
    );
    assert.equal(c.CONSOLE_LOGIN_FAILURE_WINDOW_SECONDS, 900);
    assert.equal(c.TRUSTED_PROXY_HOPS, 0);
    assert.throws(() => loadConfig({ TRUSTED_PROXY_HOPS: "-1" }), /TRUSTED_PROXY_HOPS/);
  });
});
