/**
 * Providers behind interfaces: production is handed only production
 * implementations. For funding, payout and refunds, every name that is not a production one
 * (the sandbox card, the sandbox network, "none", the sandbox refund steps) is unreachable with
 * sandbox mode off, whatever the setting says; the production ones never simulate anything.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DomainError } from "@/lib/errors";
import { PROVIDERS } from "@/lib/providers";
import { fundingProviderFor, PRODUCTION_FUNDING_PROVIDERS } from "@/lib/providers/funding";
import { payoutProviderFor, PRODUCTION_PAYOUT_PROVIDERS } from "@/lib/providers/payout";
import { PRODUCTION_REFUND_PROVIDERS, refundProviderFor } from "@/lib/providers/refunds";

const unavailable = (e: unknown) => e instanceof DomainError && e.code === "internal.unavailable";

const KINDS = {
  funding: { production: ["bank-transfer"], registry: PRODUCTION_FUNDING_PROVIDERS, pick: fundingProviderFor },
  payout: { production: ["pain001"], registry: PRODUCTION_PAYOUT_PROVIDERS, pick: payoutProviderFor },
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
