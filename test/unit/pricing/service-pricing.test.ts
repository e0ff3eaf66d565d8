import { test } from "node:test";
import assert from "node:assert/strict";
import { DomainError } from "@/lib/platform/errors";
import { corridorByCode } from "@/lib/payments/corridors/corridors";
import { checkEnvelope } from "@/lib/payments/pricing/envelope";
import { constantReferenceRates, sandboxReferenceRates } from "@/lib/payments/pricing/reference-rate";
import { envelopeTermsOf, priceQuote } from "@/lib/payments/pricing/service-pricing";

const now = new Date("2026-01-01T00:00:00Z");
const usMx = corridorByCode("US-MX")!;
const rates = constantReferenceRates({ "USD/MXN": "18.75", "EUR/XOF": "655.957" });

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof DomainError, String(err));
    return err.code;
  }
  assert.fail("expected a DomainError");
}

test("prices US-MX: every amount in six-decimal wire form", () => {
  assert.deepEqual(priceQuote({ corridor: usMx, originAmount: "100.000000", now, rates }), {
    originAmount: "100.000000",
    destinationAmount: "1875.000000",
    fxRate: "18.750000",
    principalFee: "2.990000",
    partnerFee: "0.000000",
    totalCustomerCost: "102.990000",
    currencies: { origin: "USD", destination: "MXN" },
    payoutMethod: "bank_account",
    corridorType: "OPEN_PAYMENT",
  });
});

test("partner fee is added to the total; cash pickup is OFFLINE", () => {
  const q = priceQuote({ corridor: usMx, payoutMethod: "cash_pickup", originAmount: "250.5", partnerFee: "4.25", now, rates });
  assert.equal(q.totalCustomerCost, "257.740000");
  assert.equal(q.partnerFee, "4.250000");
  assert.equal(q.destinationAmount, "4696.880000"); // 250.5 x 18.75 = 4696.875 -> 4696.88 (7 odd: tie up)
  assert.equal(q.corridorType, "OFFLINE");
});

test("the rate is rounded before use, so amounts follow from the rate shown", () => {
  const fine = constantReferenceRates({ "USD/MXN": "18.7512345" });
  const q = priceQuote({ corridor: usMx, originAmount: "100.00", now, rates: fine });
  assert.equal(q.fxRate, "18.751234"); // half-even: ...2345 -> ...234
  assert.equal(q.destinationAmount, "1875.120000"); // 100 x 18.751234, not 100 x 18.7512345
});

test("XOF destination: whole francs, half-even", () => {
  const frSn = corridorByCode("FR-SN")!;
  const price = (originAmount: string) => priceQuote({ corridor: frSn, originAmount, now, rates }).destinationAmount;
  assert.equal(price("10.00"), "6560.000000"); // 6559.57
  assert.equal(price("500.00"), "327978.000000"); // 327978.5, tie to even
  assert.equal(price("1500.00"), "983936.000000"); // 983935.5, tie to even
});

test("the sandbox provider prices every corridor within its own envelope", () => {
  for (const code of ["US-MX", "US-PH", "GB-NG", "FR-SN", "ES-CO"]) {
    const corridor = corridorByCode(code)!;
    const q = priceQuote({ corridor, originAmount: "123.45", partnerFee: "1.00", now, rates: sandboxReferenceRates });
    assert.doesNotThrow(() => checkEnvelope(envelopeTermsOf(q), corridor, now, sandboxReferenceRates), code);
  }
});

test("envelopeTermsOf: the spec 5.4 claim names", () => {
  const q = priceQuote({ corridor: usMx, originAmount: "100", partnerFee: "1", now, rates });
  assert.deepEqual(envelopeTermsOf(q), {
    send_amount: "100.000000",
    send_currency: "USD",
    receive_amount: "1875.000000",
    receive_currency: "MXN",
    fx_rate: "18.750000",
    principal_fee: "2.990000",
    partner_fee: "1.000000",
    total_consumer_cost: "103.990000",
  });
});

test("refusals: unpayable or malformed amounts, unavailable method, fee above cap", () => {
  const price = (over: Record<string, unknown>) => () => priceQuote({ corridor: usMx, originAmount: "100.00", now, rates, ...over });
  // The summary code is the issue's own code (format problems are fieldFormatInvalid).
  assert.equal(codeOf(price({ originAmount: "100.001" })), "validation.fieldFormatInvalid");
  assert.equal(codeOf(price({ originAmount: "0.000000" })), "validation.fieldInvalid");
  assert.equal(codeOf(price({ originAmount: "1e3" })), "validation.fieldFormatInvalid");
  assert.equal(codeOf(price({ originAmount: 100 })), "validation.fieldFormatInvalid");
  assert.equal(codeOf(price({ partnerFee: "0.005" })), "validation.fieldFormatInvalid");
  assert.equal(codeOf(price({ payoutMethod: "mobile_money" })), "validation.methodNotAvailableForCorridor");
  assert.equal(codeOf(price({ partnerFee: "10.01" })), "quote.envelopeBreach");
});
