/**
 * Providers behind interfaces: production is handed only production
 * implementations. For funding, payout and refunds, every name that is not a production one
 * (the sandbox card, the sandbox network, "none", the sandbox refund steps) is unreachable with
 * sandbox mode off, whatever the setting says; the production ones never simulate anything.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DomainError } from "@/lib/platform/errors";
import { PROVIDERS } from "@/lib/payments/providers";
import { fundingProviderFor, PRODUCTION_FUNDING_PROVIDERS } from "@/lib/payments/providers/funding";
import { payoutProviderFor, PRODUCTION_PAYOUT_PROVIDERS } from "@/lib/payments/providers/payout";
import { PRODUCTION_REFUND_PROVIDERS, refundProviderFor } from "@/lib/payments/providers/refunds";
import { payoutAggregatorFor, PRODUCTION_PAYOUT_AGGREGATORS, sandboxAggregatorOutcome } from "@/lib/payments/providers/payout-aggregator";
import { loadConfig } from "@/lib/platform/config";
import { productionEnv } from "../../support/production-env";

const unavailable = (e: unknown) => e instanceof DomainError && e.code === "internal.unavailable";

const KINDS = {
  funding: { production: ["bank-transfer"], registry: PRODUCTION_FUNDING_PROVIDERS, pick: fundingProviderFor },
  payout: { production: ["pain001", "routed"], registry: PRODUCTION_PAYOUT_PROVIDERS, pick: payoutProviderFor },
  payoutAggregator: { production: ["http"], registry: PRODUCTION_PAYOUT_AGGREGATORS, pick: payoutAggregatorFor },
  refunds: { production: ["operator"], registry: PRODUCTION_REFUND_PROVIDERS, pick: refundProviderFor },
} as const;

for (const [kind, k] of Object.entries(KINDS)) {
  describe(`${kind} providers`, () => {
    const spec = PROVIDERS[kind as keyof typeof KINDS];

    test("production's map holds exactly the production implementations", () => {
      assert.deepEqual(Object.keys(k.registry).sort(), [...k.production].sort());
      assert.deepEqual([...spec.production].sort(), [...k.production].sort());
    });

    test("no other name reaches production, and sandbox mode reaches each of them", () => {
      const others = spec.implementations.filter((n) => !k.production.includes(n as never));
      assert.ok(others.includes("sandbox"), "the sandbox implementation is among the refused ones");
      for (const name of others) {
        assert.throws(() => k.pick(name, false), unavailable, `${kind} ${name} in production`);
        assert.equal(k.pick(name, true).name, name, `${kind} ${name} in sandbox`);
      }
      for (const name of k.production) assert.equal(k.pick(name, false).name, name);
      assert.throws(() => k.pick("made-up", true), unavailable);
    });
  });
}

test("production implementations simulate nothing", () => {
  const funding = fundingProviderFor("bank-transfer", false);
  assert.equal(funding.takesPayments, false);
  assert.equal(funding.bankTransferOnOpen, true);
  assert.throws(() => funding.pay({ method: "CARD", cardNumber: "4242424242424242" }), unavailable, "no sandbox card in production");
  const payout = payoutProviderFor("pain001", false);
  assert.equal(payout.sandboxControls, false);
  assert.equal(payout.selfStepMs(), null);
  const refunds = refundProviderFor("operator", false);
  for (const status of ["PENDING", "PROCESSING", "COMPLETED", "FAILED"]) assert.equal(refunds.nextStep(status), null, status);
});

test("sandbox implementations: the card table, the self-moving refund", () => {
  const card = fundingProviderFor("sandbox", true);
  assert.equal(card.pay({ method: "CARD", cardNumber: "4242 4242 4242 4242" }), "SUCCEEDED");
  assert.equal(card.pay({ method: "CARD", cardNumber: "4000000000000002" }), "FAILED");
  assert.equal(card.pay({ method: "BANK_TRANSFER" }), "SUCCEEDED");
  const refunds = refundProviderFor("sandbox", true);
  assert.deepEqual(refunds.nextStep("PENDING"), { trigger: "provider.submitted", afterSeconds: 1 });
  assert.deepEqual(refunds.nextStep("PROCESSING"), { trigger: "provider.succeeded", afterSeconds: 1 });
  assert.equal(refunds.nextStep("COMPLETED"), null);
  // In sandbox the file rail's transfers may be moved by the sandbox controls; production's may not.
  assert.equal(payoutProviderFor("pain001", true).sandboxControls, true);
  assert.equal(payoutProviderFor("none", true).sandboxControls, false);
});

describe("the routed payout's aggregator", () => {
  const routed = { ...productionEnv, PAYOUT_PROVIDER: "routed" };
  const refusal = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return [];
    } catch (e) {
      return (e as { lines?: string[] }).lines ?? [String(e)];
    }
  };

  test("production with the routed payout refuses the sandbox aggregator, and a real one without its settings", () => {
    assert.ok(
      refusal({ ...routed, PAYOUT_AGGREGATOR_PROVIDER: "sandbox" }).some((l) => /PAYOUT_AGGREGATOR_PROVIDER is sandbox: production needs http/.test(l)),
    );
    assert.ok(
      refusal(routed).some((l) => /PAYOUT_AGGREGATOR_PROVIDER is unset \(sandbox\)/.test(l)),
      "unset is the sandbox: refused",
    );
    const lines = refusal({ ...routed, PAYOUT_AGGREGATOR_PROVIDER: "http" });
    for (const setting of ["PAYOUT_AGGREGATOR_URL", "PAYOUT_AGGREGATOR_KEY", "PAYOUT_AGGREGATOR_WEBHOOK_SECRET"])
      assert.ok(
        lines.some((l) => l.includes(setting)),
        setting,
      );
    assert.deepEqual(
      refusal({
        ...routed,
        PAYOUT_AGGREGATOR_URL: "https://api.aggregator.example/v2/",
        PAYOUT_AGGREGATOR_KEY: "key-0123456789",
        PAYOUT_AGGREGATOR_WEBHOOK_SECRET: "whsec-0123456789abcdef",
      }),
      [],
      "the URL set infers the real implementation",
    );
  });

  test("without the routed payout the aggregator is not needed", () => {
    assert.deepEqual(refusal(productionEnv), []);
  });

  test("sandbox outcomes follow the destination's digits", () => {
    assert.equal(sandboxAggregatorOutcome("002010999011234567"), "TIMEOUT");
    assert.equal(sandboxAggregatorOutcome("+234 803 999 02 12"), "PROVIDER_DOWN");
    assert.equal(sandboxAggregatorOutcome("SN08SN0100152000048500003035"), "ACCEPTED");
    assert.equal(sandboxAggregatorOutcome("SN08 SN01 0015 2999 0300 0030 35"), "REJECTED_AC01");
  });
});
