import { test } from "node:test";
import assert from "node:assert/strict";
import { DomainError } from "@/lib/platform/errors";
import { corridorByCode } from "@/lib/payments/corridors/corridors";
import { checkEnvelope, type EnvelopeTerms } from "@/lib/payments/pricing/envelope";
import { constantReferenceRates, sandboxReferenceRates } from "@/lib/payments/pricing/reference-rate";

const now = new Date("2026-01-01T00:00:00Z");
const usMx = corridorByCode("US-MX")!; // principal fee 2.99, cap 10.00, tolerance 0.005
const frSn = corridorByCode("FR-SN")!; // EUR -> XOF, 0 decimals, pegged 655.957
const rates = constantReferenceRates({ "USD/MXN": "18.75" });

const valid: EnvelopeTerms = {
  send_amount: "100.000000",
  send_currency: "USD",
  receive_amount: "1875.000000",
  receive_currency: "MXN",
  fx_rate: "18.750000",
  principal_fee: "2.990000",
  partner_fee: "1.000000",
  total_consumer_cost: "103.990000",
};

function breachOf(terms: Partial<EnvelopeTerms>, corridor = usMx, provider = rates): Record<string, unknown> {
  try {
    checkEnvelope({ ...valid, ...terms } as EnvelopeTerms, corridor, now, provider);
  } catch (err) {
    assert.ok(err instanceof DomainError, String(err));
    assert.equal(err.code, "quote.envelopeBreach");
    assert.equal(err.status, 422);
    return err.details!;
  }
  assert.fail("expected quote.envelopeBreach");
}

test("valid terms pass", () => {
  assert.doesNotThrow(() => checkEnvelope(valid, usMx, now, rates));
});

test("values compare as numbers: short and six-decimal spellings are equal", () => {
  const short: EnvelopeTerms = {
    ...valid,
    send_amount: "100",
    receive_amount: "1875",
    fx_rate: "18.75",
    principal_fee: "2.99",
    partner_fee: "1",
    total_consumer_cost: "103.99",
  };
  assert.doesNotThrow(() => checkEnvelope(short, usMx, now, rates));
});

test("measure 1, fxRate: outside reference x (1 +- 0.005)", () => {
  assert.deepEqual(breachOf({ fx_rate: "18.85", receive_amount: "1885.00" }), {
    measure: "fxRate",
    expected: "18.65625..18.84375",
    actual: "18.85",
    referenceRate: "18.750000",
    tolerance: "0.005",
  });
  assert.equal(breachOf({ fx_rate: "18.656249", receive_amount: "1865.62" }).measure, "fxRate");
});

test("measure 1 bounds are inclusive", () => {
  // 100 x 18.84375 = 1884.375 -> 1884.38 (half-even: 7 is odd, so the tie goes up).
  assert.doesNotThrow(() => checkEnvelope({ ...valid, fx_rate: "18.84375", receive_amount: "1884.38" }, usMx, now, rates));
  assert.doesNotThrow(() => checkEnvelope({ ...valid, fx_rate: "18.65625", receive_amount: "1865.62" }, usMx, now, rates));
});

test("measure 1 uses the reference rate at `now`, not at pricing time", () => {
  const priced = sandboxReferenceRates.rate({ from: "USD", to: "MXN" }, now).toFixed();
  assert.equal(priced, "18.712705");
  const receive = "1871.27"; // 100 x 18.712705 = 1871.2705 -> 1871.27
  const terms = { ...valid, fx_rate: priced, receive_amount: receive };
  assert.doesNotThrow(() => checkEnvelope(terms, usMx, now, sandboxReferenceRates));
  // A fixed 18.75 reference would accept 18.84375; the sandbox reference at `now` does not.
  assert.equal(breachOf({ fx_rate: "18.84375", receive_amount: "1884.38" }, usMx, sandboxReferenceRates).measure, "fxRate");
});

test("measure 2, partnerFee: above the cap", () => {
  assert.deepEqual(breachOf({ partner_fee: "10.01", total_consumer_cost: "113.00" }), {
    measure: "partnerFee",
    expected: "0.000000..10.000000",
    actual: "10.01",
  });
  assert.doesNotThrow(() => checkEnvelope({ ...valid, partner_fee: "10", total_consumer_cost: "112.99" }, usMx, now, rates));
  assert.doesNotThrow(() => checkEnvelope({ ...valid, partner_fee: "0", total_consumer_cost: "102.99" }, usMx, now, rates));
});

test("measure 2, partnerFee: below the origin currency's minor unit", () => {
  assert.deepEqual(breachOf({ partner_fee: "1.001", total_consumer_cost: "103.991" }), {
    measure: "partnerFee",
    expected: "0.000000..10.000000",
    actual: "1.001",
    reason: "minorUnit",
  });
});

test("measure 3, principalFee: must equal the corridor's", () => {
  assert.deepEqual(breachOf({ principal_fee: "3.00", total_consumer_cost: "104.00" }), {
    measure: "principalFee",
    expected: "2.990000",
    actual: "3.00",
  });
  assert.equal(breachOf({ principal_fee: "0", total_consumer_cost: "101.00" }).measure, "principalFee");
});

test("measure 3, totalConsumerCost: send + principal + partner, exactly", () => {
  assert.deepEqual(breachOf({ total_consumer_cost: "104.00" }), {
    measure: "totalConsumerCost",
    expected: "103.990000",
    actual: "104.00",
  });
  assert.equal(breachOf({ total_consumer_cost: "103.989999" }).measure, "totalConsumerCost");
});

test("measure 3, receiveAmount: send x rate rounded half-even to the destination minor unit", () => {
  assert.deepEqual(breachOf({ receive_amount: "1875.01" }), {
    measure: "receiveAmount",
    expected: "1875.000000",
    actual: "1875.01",
  });
  // Unrounded product is a breach too: 100.01 x 18.75 = 1875.1875 must be sent as 1875.19.
  const terms = { send_amount: "100.01", total_consumer_cost: "104.00" };
  assert.deepEqual(breachOf({ ...terms, receive_amount: "1875.1875" }), {
    measure: "receiveAmount",
    expected: "1875.190000",
    actual: "1875.1875",
  });
  assert.doesNotThrow(() => checkEnvelope({ ...valid, ...terms, receive_amount: "1875.19" }, usMx, now, rates));
});

test("XOF (0 decimals): ties round to even", () => {
  const xof = (send: string, receive: string, total: string): EnvelopeTerms => ({
    send_amount: send,
    send_currency: "EUR",
    receive_amount: receive,
    receive_currency: "XOF",
    fx_rate: "655.957",
    principal_fee: "2.50",
    partner_fee: "0",
    total_consumer_cost: total,
  });
  // 500 x 655.957 = 327978.5 -> 327978; 1500 x 655.957 = 983935.5 -> 983936.
  assert.doesNotThrow(() => checkEnvelope(xof("500", "327978", "502.50"), frSn, now, sandboxReferenceRates));
  assert.doesNotThrow(() => checkEnvelope(xof("1500", "983936", "1502.50"), frSn, now, sandboxReferenceRates));
  assert.deepEqual(breachOf(xof("500", "327979", "502.50"), frSn, sandboxReferenceRates), {
    measure: "receiveAmount",
    expected: "327978.000000",
    actual: "327979",
  });
  assert.equal(breachOf(xof("10.50", "6887.55", "13.00"), frSn, sandboxReferenceRates).measure, "receiveAmount");
});

test("the first failing measure is reported, in envelope order", () => {
  const all = { fx_rate: "20", partner_fee: "50", principal_fee: "0", total_consumer_cost: "1", receive_amount: "1" };
  assert.equal(breachOf(all).measure, "fxRate");
  assert.equal(breachOf({ ...all, fx_rate: "18.75" }).measure, "partnerFee");
  assert.equal(breachOf({ ...all, fx_rate: "18.75", partner_fee: "1" }).measure, "principalFee");
  assert.equal(breachOf({ ...all, fx_rate: "18.75", partner_fee: "1", principal_fee: "2.99" }).measure, "totalConsumerCost");
});

test("other currencies than the corridor's are a binding mismatch, not a breach", () => {
  assert.throws(
    () => checkEnvelope({ ...valid, send_currency: "EUR" }, usMx, now, rates),
    (err: unknown) =>
      err instanceof DomainError &&
      err.code === "quote.bindingMismatch" &&
      err.status === 422 &&
      JSON.stringify(err.details) === JSON.stringify({ field: "send_currency", expected: "USD", actual: "EUR" }),
  );
  assert.throws(
    () => checkEnvelope({ ...valid, receive_currency: "PHP" }, usMx, now, rates),
    (err: unknown) => err instanceof DomainError && err.code === "quote.bindingMismatch",
  );
});

test("unreadable numbers are quote.invalid naming the claim", () => {
  for (const [field, value] of [
    ["partner_fee", "-1"],
    ["fx_rate", "1e1"],
    ["send_amount", ""],
    ["total_consumer_cost", "103,99"],
  ] as const) {
    assert.throws(
      () => checkEnvelope({ ...valid, [field]: value }, usMx, now, rates),
      (err: unknown) => err instanceof DomainError && err.code === "quote.invalid" && err.details?.field === field,
      field,
    );
  }
});
