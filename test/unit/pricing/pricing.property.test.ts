/**
 * Property tests: service pricing always lands inside the envelope, and its amounts agree with
 * an independent bigint oracle (scaled integers, half-even written out), for every sandbox
 * corridor, payout method, amount 0.01 .. 1,000,000 and rate.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { DomainError } from "@/lib/platform/errors";
import { minorUnitExponent } from "@/lib/platform/money/currency";
import { listCorridors, type Corridor } from "@/lib/payments/corridors/corridors";
import { checkEnvelope, type EnvelopeMeasure, type EnvelopeTerms } from "@/lib/payments/pricing/envelope";
import { constantReferenceRates, sandboxReferenceRates } from "@/lib/payments/pricing/reference-rate";
import { envelopeTermsOf, priceQuote } from "@/lib/payments/pricing/service-pricing";
import { divHalfEven, fromScaled, pow10, significantDecimals, toScaled } from "../money/bigint-oracle";

const RUNS = { numRuns: 400 };
const WIRE = /^(0|[1-9]\d*)\.\d{6}$/;
const corridors = listCorridors();

/** 0.01 .. 1,000,000 at six decimals, as a scaled integer. */
const amount6 = fc.bigInt({ min: 10_000n, max: 1_000_000_000_000n });
/** A time between 2000 and 2100. */
const instant = fc.integer({ min: 946_684_800_000, max: 4_102_444_800_000 }).map((ms) => new Date(ms));

const corridorAndMethod = fc.constantFrom(...corridors).chain((c) => fc.tuple(fc.constant(c), fc.constantFrom(...c.payoutMethods)));

/** A partner fee from zero to the corridor's cap, in whole origin minor units. */
function partnerFeeOf(c: Corridor) {
  const e = minorUnitExponent(c.originCurrency);
  return fc.bigInt({ min: 0n, max: toScaled(c.partnerFeeCap.toFixed(), e) }).map((units) => fromScaled(units, e));
}

/**
 * Oracle of the rate rule, on a rate scaled by 10^9: half-even to max(6 decimals, 8 significant
 * digits). The first significant digit of r/10^9 is at 10^(digits - 10).
 */
function roundRate9(rate9: bigint): bigint {
  const firstDigitPower = rate9.toString().length - 10;
  const places = Math.max(6, 7 - firstDigitPower);
  return places >= 9 ? rate9 : divHalfEven(rate9, pow10(9 - places)) * pow10(9 - places);
}

/** Oracle: the amounts priceQuote must produce, scaled by 10^6; the rate arrives scaled by 10^9. */
function oracle(c: Corridor, originAmount: string, partnerFee: string, rate9: bigint) {
  const send = toScaled(originAmount, 6);
  const e = minorUnitExponent(c.destinationCurrency);
  const receive = divHalfEven(send * rate9, pow10(15 - e)) * pow10(6 - e);
  const total = send + toScaled(c.principalFee.toFixed(), 6) + toScaled(partnerFee, 6);
  return { send, receive, total };
}

function assertMatchesOracle(q: ReturnType<typeof priceQuote>, c: Corridor, originAmount: string, partnerFee: string, rate9: bigint) {
  for (const value of [q.originAmount, q.destinationAmount, q.principalFee, q.partnerFee, q.totalCustomerCost]) {
    assert.match(value, WIRE);
  }
  assert.match(q.fxRate, /^(0|[1-9]\d*)\.\d{6,}$/);
  const expected = oracle(c, originAmount, partnerFee, rate9);
  assert.equal(toScaled(q.fxRate, 9), rate9);
  assert.equal(toScaled(q.originAmount, 6), expected.send);
  assert.equal(toScaled(q.destinationAmount, 6), expected.receive);
  assert.equal(toScaled(q.totalCustomerCost, 6), expected.total);
  // The total is the plain sum of the parts shown to the customer.
  assert.equal(toScaled(q.totalCustomerCost, 6), toScaled(q.originAmount, 6) + toScaled(q.principalFee, 6) + toScaled(q.partnerFee, 6));
}

test("payable amounts at any rate: inside the envelope, equal to the oracle", () => {
  fc.assert(
    fc.property(
      corridorAndMethod.chain(([c, m]) =>
        fc.record({
          c: fc.constant(c),
          m: fc.constant(m),
          // Whole origin minor units, 0.01 .. 1,000,000.
          units: fc.bigInt({ min: 1n, max: 1_000_000n * pow10(minorUnitExponent(c.originCurrency)) }),
          fee: partnerFeeOf(c),
          // Rate 0.000001 .. 100000 given to nine decimals: also exercises rounding the rate.
          rate9: fc.oneof(
            fc.bigInt({ min: 1_000n, max: 100_000n * 10n ** 9n }),
            fc.bigInt({ min: 1_000n, max: 10n ** 9n }), // below 1: the significant-digit rule
          ),
          now: instant,
        }),
      ),
      ({ c, m, units, fee, rate9, now }) => {
        const originAmount = fromScaled(units, minorUnitExponent(c.originCurrency));
        const rates = constantReferenceRates({ [`${c.originCurrency}/${c.destinationCurrency}`]: fromScaled(rate9, 9) });
        const q = priceQuote({ corridor: c, payoutMethod: m, originAmount, partnerFee: fee, now, rates });
        assertMatchesOracle(q, c, originAmount, fee, roundRate9(rate9));
        checkEnvelope(envelopeTermsOf(q), c, now, rates);
        assert.equal(q.payoutMethod, m);
        assert.equal(q.corridorType, m === "cash_pickup" ? "OFFLINE" : "OPEN_PAYMENT");
      },
    ),
    RUNS,
  );
});

test("amounts with up to six decimals: priced iff payable in the origin currency", () => {
  fc.assert(
    fc.property(corridorAndMethod, amount6, instant, ([c, m], scaled, now) => {
      const originAmount = fromScaled(scaled, 6);
      const payable = significantDecimals(originAmount) <= minorUnitExponent(c.originCurrency);
      try {
        const q = priceQuote({ corridor: c, payoutMethod: m, originAmount, now, rates: sandboxReferenceRates });
        assert.ok(payable, `${originAmount} ${c.originCurrency} should have been refused`);
        assertMatchesOracle(q, c, originAmount, "0", toScaled(q.fxRate, 9));
        checkEnvelope(envelopeTermsOf(q), c, now, sandboxReferenceRates);
      } catch (err) {
        if (!(err instanceof DomainError) || !err.code.startsWith("validation.field") || payable) throw err;
      }
    }),
    RUNS,
  );
});

test("a sandbox-priced quote still passes the envelope when accepted up to 30 minutes later", () => {
  fc.assert(
    fc.property(
      corridorAndMethod.chain(([c, m]) => fc.tuple(fc.constant(c), fc.constant(m), fc.bigInt({ min: 1n, max: 100_000_000n }), partnerFeeOf(c))),
      instant,
      fc.integer({ min: 0, max: 1800 * 1000 }),
      ([c, m, cents, fee], pricedAt, delayMs) => {
        const originAmount = fromScaled(cents, minorUnitExponent(c.originCurrency));
        const q = priceQuote({ corridor: c, payoutMethod: m, originAmount, partnerFee: fee, now: pricedAt, rates: sandboxReferenceRates });
        const acceptedAt = new Date(pricedAt.getTime() + delayMs);
        checkEnvelope(envelopeTermsOf(q), c, acceptedAt, sandboxReferenceRates);
      },
    ),
    RUNS,
  );
});

test("every (pricing minute, acceptance minute) pair of the sandbox hour stays inside the tolerance", () => {
  // Exhaustive over the 60-minute period: the worst case of the property above.
  const base = Date.UTC(2026, 0, 1);
  for (const c of corridors) {
    const quotes = Array.from({ length: 60 }, (_, minute) =>
      priceQuote({ corridor: c, originAmount: "1000", now: new Date(base + minute * 60_000), rates: sandboxReferenceRates }),
    );
    for (const q of quotes) {
      for (let minute = 0; minute < 60; minute++) {
        checkEnvelope(envelopeTermsOf(q), c, new Date(base + minute * 60_000), sandboxReferenceRates);
      }
    }
  }
});

test("changing any one term of a priced quote breaches the measure that guards it", () => {
  const measureOf = (terms: EnvelopeTerms, c: Corridor, now: Date): EnvelopeMeasure | "none" => {
    try {
      checkEnvelope(terms, c, now, sandboxReferenceRates);
      return "none";
    } catch (err) {
      assert.ok(err instanceof DomainError && err.code === "quote.envelopeBreach", String(err));
      return err.details!.measure as EnvelopeMeasure;
    }
  };
  const bump = (wire: string, exponent: number, by: bigint) => fromScaled(toScaled(wire, 6) + by * pow10(6 - exponent), 6);
  fc.assert(
    fc.property(fc.constantFrom(...corridors), fc.bigInt({ min: 100n, max: 100_000_000n }), instant, fc.constantFrom(1n, -1n), (c, units, now, sign) => {
      const originAmount = fromScaled(units, minorUnitExponent(c.originCurrency));
      const terms = envelopeTermsOf(priceQuote({ corridor: c, originAmount, partnerFee: "1", now, rates: sandboxReferenceRates }));
      const eo = minorUnitExponent(c.originCurrency);
      const ed = minorUnitExponent(c.destinationCurrency);
      assert.equal(measureOf({ ...terms, receive_amount: bump(terms.receive_amount, ed, sign) }, c, now), "receiveAmount");
      assert.equal(measureOf({ ...terms, total_consumer_cost: bump(terms.total_consumer_cost, eo, sign) }, c, now), "totalConsumerCost");
      assert.equal(measureOf({ ...terms, principal_fee: bump(terms.principal_fee, eo, sign) }, c, now), "principalFee");
      const overCap = c.partnerFeeCap.plus(1).toFixed();
      assert.equal(measureOf({ ...terms, partner_fee: overCap }, c, now), "partnerFee");
      const farRate = c.referenceRate.mid.times(sign > 0n ? "1.05" : "0.95").toFixed();
      assert.equal(measureOf({ ...terms, fx_rate: farRate }, c, now), "fxRate");
    }),
    { numRuns: 200 },
  );
});
