/**
 * The prices a configuration version may set beyond one fee per corridor: principal fee bands,
 * an FX margin per corridor and per partner, and a corridor maximum. Each is checked by the
 * version's schema at its field, applied by service pricing, and held by the pricing envelope.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { checkMaximumAmount, fxMarginFor, principalFeeFor } from "@/lib/payments/corridors/corridors";
import { documentProblems, previewQuote } from "@/lib/payments/corridors/changes";
import { parseDocument, seedDocument } from "@/lib/payments/corridors/versions";
import { checkEnvelope } from "@/lib/payments/pricing/envelope";
import { constantReferenceRates } from "@/lib/payments/pricing/reference-rate";
import { envelopeTermsOf, priceQuote } from "@/lib/payments/pricing/service-pricing";
import { Decimal } from "@/lib/platform/money/decimal";

const now = new Date("2026-01-01T00:00:00Z");
const rates = constantReferenceRates({ "USD/MXN": "18.75" });

/** The seed with US-MX's fields replaced. */
function withUsMx(changes: Record<string, unknown>): { corridors: Record<string, unknown>[] } {
  const seed = structuredClone(seedDocument()) as { corridors: Record<string, unknown>[] };
  return { ...seed, corridors: seed.corridors.map((c) => (c.code === "US-MX" ? { ...c, ...changes } : c)) };
}

const priced = {
  principalFeeBands: [
    { fromOriginAmount: "500.00", fee: "4.99" },
    { fromOriginAmount: "1500.00", fee: "7.99" },
  ],
  fxTolerance: "0.02",
  fxMargin: "0.01",
  partnerFxMargins: { par_own: "0.005" },
  maximumOriginAmount: "2500.00",
};
const usMx = () => parseDocument(withUsMx(priced)).find((c) => c.code === "US-MX")!;

test("the fee of an amount is its band's: the corridor's fee below the first band, each band's from its amount on", () => {
  const c = usMx();
  const fee = (amount: string) => principalFeeFor(c, new Decimal(amount)).toFixed(2);
  assert.deepEqual(["15.00", "499.99", "500.00", "1499.99", "1500.00", "2500.00"].map(fee), ["2.99", "2.99", "4.99", "4.99", "7.99", "7.99"]);
  const seedUsMx = parseDocument(seedDocument()).find((x) => x.code === "US-MX")!;
  assert.equal(principalFeeFor(seedUsMx, new Decimal("2000")).toFixed(2), "2.99", "no bands: one fee at every amount");
});

test("service pricing takes the partner's margin, else the corridor's, off the reference rate; the fee follows the band", () => {
  const c = usMx();
  assert.equal(fxMarginFor(c, "par_own")?.toFixed(), "0.005");
  assert.equal(fxMarginFor(c, "par_other")?.toFixed(), "0.01");
  const corridorMargin = priceQuote({ corridor: c, originAmount: "600.00", partnerId: "par_other", now, rates });
  assert.deepEqual(
    [corridorMargin.fxRate, corridorMargin.principalFee, corridorMargin.destinationAmount, corridorMargin.totalCustomerCost],
    ["18.562500", "4.990000", "11137.500000", "604.990000"],
  );
  const ownMargin = priceQuote({ corridor: c, originAmount: "100.00", partnerId: "par_own", now, rates });
  assert.deepEqual([ownMargin.fxRate, ownMargin.principalFee], ["18.656250", "2.990000"]);
  // Both inside the envelope: the rate within the tolerance, the fee the band's.
  checkEnvelope(envelopeTermsOf(corridorMargin), c, now, rates);
  checkEnvelope(envelopeTermsOf(ownMargin), c, now, rates);
  // A quote signed with the flat fee at a banded amount breaches at its principal fee.
  const flat = { ...envelopeTermsOf(corridorMargin), principal_fee: "2.99", total_consumer_cost: "602.99" };
  assert.throws(
    () => checkEnvelope(flat, c, now, rates),
    (e: unknown) => {
      const d = (e as { code: string; details: { measure: string; expected: string } }).details;
      assert.deepEqual([d.measure, d.expected], ["principalFee", "4.990000"]);
      return true;
    },
  );
  assert.match(previewQuote(c, now, rates), /^100\.00 USD to MXN: fee 2\.99 USD, rate 18\.5625, receives 1856\.25 MXN, pays 102\.99 USD$/);
});

test("a corridor's maximum refuses a larger amount at its field; none without it", () => {
  const c = usMx();
  checkMaximumAmount(c, new Decimal("2500.00"));
  assert.throws(
    () => checkMaximumAmount(c, new Decimal("2500.01"), "originAmount"),
    (e: unknown) => {
      const err = e as { code: string; details: { issues: { field: string; message: string }[] } };
      assert.equal(err.code, "validation.fieldInvalid");
      assert.deepEqual(
        err.details.issues.map((i) => [i.field, i.message]),
        [["originAmount", "The amount is above the maximum of 2500.00 USD for US-MX."]],
      );
      return true;
    },
  );
  checkMaximumAmount(parseDocument(seedDocument())[0], new Decimal("1000000"));
});

test("the schema refuses bands, margins and maximums that would misprice, each at its field", () => {
  assert.deepEqual(documentProblems(withUsMx(priced)), []);
  const fields = (changes: Record<string, unknown>) => documentProblems(withUsMx({ ...priced, ...changes })).map((p) => p.field);
  assert.deepEqual(fields({ maximumOriginAmount: "10.00" }), ["US-MX.maximumOriginAmount"], "at or below the minimum");
  assert.deepEqual(fields({ maximumOriginAmount: "2500.001" }), ["US-MX.maximumOriginAmount"], "more decimals than USD");
  assert.deepEqual(
    fields({
      principalFeeBands: [
        { fromOriginAmount: "500.00", fee: "4.99" },
        { fromOriginAmount: "400.00", fee: "5.99" },
      ],
    }),
    ["US-MX.principalFeeBands.1.fromOriginAmount"],
    "not ascending",
  );
  assert.deepEqual(
    fields({ principalFeeBands: [{ fromOriginAmount: "10.00", fee: "1.99" }] }),
    ["US-MX.principalFeeBands.0.fromOriginAmount"],
    "below the minimum",
  );
  assert.deepEqual(fields({ principalFeeBands: [{ fromOriginAmount: "500.00", fee: "4.999" }] }), ["US-MX.principalFeeBands.0.fee"]);
  assert.deepEqual(fields({ principalFeeBands: [{ fromOriginAmount: "500.00", fee: "500.00" }] }), ["US-MX.principalFeeBands.0.fee"]);
  // The margin and twice the rate's swing must fit inside the tolerance (0.02 - 2 x 0.002 - 0.0005).
  assert.deepEqual(fields({ fxMargin: "0.0155" }), []);
  assert.deepEqual(fields({ fxMargin: "0.0156" }), ["US-MX.fxMargin"]);
  assert.deepEqual(fields({ partnerFxMargins: { par_own: "0.02" } }), ["US-MX.partnerFxMargins.par_own"]);
  assert.deepEqual(fields({ partnerFxMargins: { "not a partner": "0.001" } }), ["US-MX.partnerFxMargins.not a partner"]);
  // The seed's tolerance leaves no room for a margin: raising it is part of the change.
  assert.deepEqual(
    documentProblems(withUsMx({ fxMargin: "0.01" })).map((p) => p.field),
    ["US-MX.fxMargin"],
  );
});
