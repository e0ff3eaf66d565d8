import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { loadConfig } from "@/lib/platform/config";
import { assertProductionProviders, PROVIDER_KINDS, PROVIDERS } from "@/lib/payments/providers";
import { productionEnv } from "../../support/production-env";

/** The error lines loadConfig refused with (one per provider problem). */
function refusal(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (e) {
    return (e as Error).message.split("\n").slice(1);
  }
  assert.fail("configuration was accepted");
}

describe("providers are configuration (issue 11)", () => {
  test("sandbox: every provider defaults to its sandbox implementation (screening: the lists), money rails included", () => {
    const c = loadConfig({});
    assert.deepEqual(
      Object.values(c.providers),
      PROVIDER_KINDS.map((k) => (k === "screening" ? "ofac" : "sandbox")),
    );
    assert.deepEqual(assertProductionProviders(c), []);
  });

  test("production with every provider real starts; funding defaults to bank-transfer, payout is pain001, refunds operator", () => {
    const c = loadConfig(productionEnv);
    assert.deepEqual(c.providers, {
      otpEmail: "smtp",
      otpSms: "sms-webhook",
      screening: "ofac",
      pep: "opensanctions",
      referenceRates: "ecb",
      kycDecision: "operator",
      funding: "bank-transfer",
      payout: "pain001",
      // Unused without the routed payout (production's map has no sandbox aggregator anyway).
      payoutAggregator: "sandbox",
      refunds: "operator",
    });
    assert.deepEqual(assertProductionProviders(c), []);
  });

  for (const kind of PROVIDER_KINDS) {
    const setting = PROVIDERS[kind].setting;
    // The aggregator is needed only by the routed payout.
    const base: Record<string, string> = kind === "payoutAggregator" ? { ...productionEnv, PAYOUT_PROVIDER: "routed" } : productionEnv;
    test(`production refuses ${setting}=sandbox with one line naming it`, () => {
      assert.deepEqual(refusal({ ...base, [setting]: "sandbox" }), [
        `${setting} is sandbox: production needs ${PROVIDERS[kind].production.join(" or ")}${PROVIDERS[kind].unusedWith ? ` (or ${PROVIDERS[kind].unusedWith})` : ""}`,
      ]);
    });
    // Unset: refused with one line, unless the production default is itself real (screening: ofac; funding: bank-transfer; payout: pain001; refunds: operator).
    const env: Record<string, string> = { ...base };
    delete env[setting];
    // Unset email/SMS choices are inferred from SMTP_URL / SMS_WEBHOOK_URL; drop those too.
    if (PROVIDERS[kind].inferredFrom) delete env[PROVIDERS[kind].inferredFrom!.setting];
    if (["screening", "funding", "payout", "refunds"].includes(kind)) {
      test(`production with ${setting} unset starts on its real default`, () => {
        assert.ok(PROVIDERS[kind].production.includes(loadConfig(env).providers[kind]));
      });
    } else {
      test(`production refuses ${setting} unset with one line naming it`, () => {
        const lines = refusal(env);
        assert.equal(lines.length, 1, lines.join("\n"));
        assert.match(lines[0], new RegExp(`^${setting} is unset`));
      });
    }
  }

  test("payout files: PAYOUT_BANKS is checked at start; pain001 needs it; production refuses payout none", () => {
    const env: Record<string, string> = { ...productionEnv };
    assert.equal(loadConfig(env).PAYOUT_BANKS[0].id, "bbva-mx");
    delete env.PAYOUT_BANKS;
    assert.deepEqual(refusal(env), ["PAYOUT_PROVIDER=pain001 needs PAYOUT_BANKS"]);
    assert.deepEqual(refusal({ ...productionEnv, PAYOUT_PROVIDER: "none" }), ["PAYOUT_PROVIDER is none: production needs pain001 or routed"]);
    const bank = { id: "b1", name: "B", bic: "BCMRMXMMXXX", debtorIban: "DE89370400440532013000", debtorName: "Remit", currencies: ["MXN"] };
    assert.throws(() => loadConfig({ PAYOUT_BANKS: "not json" }), /PAYOUT_BANKS: not JSON/);
    assert.throws(() => loadConfig({ PAYOUT_BANKS: JSON.stringify([{ ...bank, debtorIban: "DE00123" }]) }), /debtorIban: not a valid IBAN/);
    assert.throws(() => loadConfig({ PAYOUT_BANKS: JSON.stringify([{ ...bank, bic: "XX" }]) }), /bic: not a BIC/);
    assert.throws(() => loadConfig({ PAYOUT_BANKS: JSON.stringify([bank, bank]) }), /bank ids must be unique/);
    // Sandbox without PAYOUT_BANKS: the simulated bank pays every corridor currency.
    assert.ok(loadConfig({}).PAYOUT_BANKS[0].currencies.includes("MXN"));
  });

  test("several problems: one line each, all at once", () => {
    const env: Record<string, string> = { ...productionEnv, SCREENING_PROVIDER: "sandbox", KYC_DECISION_PROVIDER: "sandbox" };
    delete env.OTP_EMAIL_FROM;
    assert.deepEqual(refusal(env), [
      "OTP_EMAIL_PROVIDER=smtp needs OTP_EMAIL_FROM",
      "SCREENING_PROVIDER is sandbox: production needs ofac",
      "KYC_DECISION_PROVIDER is sandbox: production needs operator or automatic or onfido",
    ]);
  });

  test("an unknown implementation and a real one missing its settings are refused in sandbox too", () => {
    assert.deepEqual(refusal({ SCREENING_PROVIDER: "acme" }), ["SCREENING_PROVIDER=acme is not one of: sandbox, ofac"]);
    assert.deepEqual(refusal({ OTP_SMS_PROVIDER: "sms-webhook" }), [
      "OTP_SMS_PROVIDER=sms-webhook needs SMS_WEBHOOK_URL",
      "OTP_SMS_PROVIDER=sms-webhook needs SMS_WEBHOOK_SECRET",
    ]);
  });

  test("sandbox with SMTP_URL sends email; SMTP_URL must be smtp(s)://, credentials optional (issue 20 item 2)", () => {
    const c = loadConfig({ SMTP_URL: "smtp://u:p@127.0.0.1:2525", OTP_EMAIL_FROM: "a@example.com" });
    assert.equal(c.providers.otpEmail, "smtp");
    assert.equal(loadConfig({ SMTP_URL: "smtp://mail.example.com:25", OTP_EMAIL_FROM: "a@example.com" }).providers.otpEmail, "smtp");
    assert.throws(() => loadConfig({ SMTP_URL: "http://u:p@host" }), /SMTP_URL: http: is not smtp: or smtps:/);
  });
});
