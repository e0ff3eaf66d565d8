import { test } from "node:test";
import assert from "node:assert/strict";
import { Decimal } from "@/lib/platform/money/decimal";
import { listCorridors } from "@/lib/payments/corridors/corridors";
import { constantReferenceRates, createSandboxReferenceRates, sandboxReferenceRates, sinePpm } from "@/lib/payments/pricing/reference-rate";

const at = (iso: string) => new Date(iso);
const usdMxn = { from: "USD", to: "MXN" };

test("the integer sine table is sin(2 pi k / 60) to the nearest ppm", () => {
  // Math.sin is used here only as the test's oracle, never by the code under test.
  for (let k = -60; k < 120; k++) {
    assert.ok(Math.abs(sinePpm(k) - Math.sin((2 * Math.PI * k) / 60) * 1e6) <= 0.5, `k=${k}`);
  }
});

test("golden values: the sandbox model is stable across releases", () => {
  assert.equal(sandboxReferenceRates.rate(usdMxn, at("2026-01-01T00:07:00Z")).toFixed(), "18.724908");
  assert.equal(sandboxReferenceRates.rate({ from: "GBP", to: "NGN" }, at("2026-01-01T00:07:30Z")).toFixed(), "2053.899334");
  assert.equal(sandboxReferenceRates.rate({ from: "EUR", to: "COP" }, at("2026-01-01T00:00:00Z")).toFixed(), "4550.951205");
});

test("constant within a minute, moving between minutes, repeating hourly", () => {
  const r = (iso: string) => sandboxReferenceRates.rate(usdMxn, at(iso)).toFixed();
  assert.equal(r("2026-01-01T00:07:00.000Z"), r("2026-01-01T00:07:59.999Z"));
  assert.notEqual(r("2026-01-01T00:07:00Z"), r("2026-01-01T00:08:00Z"));
  assert.equal(r("2026-01-01T00:07:00Z"), r("2026-01-01T01:07:00Z"));
  assert.equal(r("2026-01-01T00:07:00Z"), r("2031-06-15T13:07:00Z"));
});

test("every corridor pair stays within mid x (1 +- amplitude) with six decimals", () => {
  for (const c of listCorridors()) {
    const { mid, amplitude } = c.referenceRate;
    const low = mid.times(new Decimal(1).minus(amplitude));
    const high = mid.times(amplitude.plus(1));
    for (let minute = 0; minute < 60; minute++) {
      const rate = sandboxReferenceRates.rate({ from: c.originCurrency, to: c.destinationCurrency }, new Date(Date.UTC(2026, 0, 1, 0, minute)));
      assert.ok(rate.gte(low.toDecimalPlaces(6, Decimal.ROUND_DOWN)) && rate.lte(high.toDecimalPlaces(6, Decimal.ROUND_UP)), c.code);
      assert.ok(rate.decimalPlaces() <= 6, c.code);
    }
  }
});

test("EUR/XOF is pegged: amplitude 0 keeps it at 655.957", () => {
  for (let minute = 0; minute < 60; minute += 7) {
    const rate = sandboxReferenceRates.rate({ from: "EUR", to: "XOF" }, new Date(Date.UTC(2026, 0, 1, 0, minute)));
    assert.equal(rate.toFixed(), "655.957");
  }
});

test("unknown pairs, reversed pairs and invalid dates are refused", () => {
  assert.throws(() => sandboxReferenceRates.rate({ from: "MXN", to: "USD" }, at("2026-01-01T00:00:00Z")), RangeError);
  assert.throws(() => sandboxReferenceRates.rate({ from: "USD", to: "JPY" }, at("2026-01-01T00:00:00Z")), RangeError);
  assert.throws(() => sandboxReferenceRates.rate(usdMxn, new Date(Number.NaN)), RangeError);
});

test("conflicting definitions of one pair are a configuration error", () => {
  const pair = { from: "USD", to: "MXN", amplitude: new Decimal("0.002") };
  assert.throws(
    () =>
      createSandboxReferenceRates([
        { ...pair, mid: new Decimal("18") },
        { ...pair, mid: new Decimal("19") },
      ]),
    /Conflicting/,
  );
});

test("constant provider for tests parses strictly", () => {
  assert.equal(constantReferenceRates({ "USD/MXN": "18.75" }).rate(usdMxn, at("2026-01-01T00:00:00Z")).toFixed(), "18.75");
  assert.throws(() => constantReferenceRates({ "USD/MXN": "1e3" }), RangeError);
  assert.throws(() => constantReferenceRates({ "USD/MXN": "0" }), RangeError);
});

test("the sandbox carries fixed cross rates between the origin currencies, both ways, for limits in another currency (issue 23)", () => {
  for (let minute = 0; minute < 60; minute += 13) {
    const at = new Date(Date.UTC(2026, 0, 1, 0, minute));
    assert.equal(sandboxReferenceRates.rate({ from: "GBP", to: "USD" }, at).toFixed(), "1.27");
    assert.equal(sandboxReferenceRates.rate({ from: "USD", to: "GBP" }, at).toFixed(), "0.78740157");
    assert.equal(sandboxReferenceRates.rate({ from: "EUR", to: "USD" }, at).toFixed(), "1.08");
    assert.equal(sandboxReferenceRates.rate({ from: "USD", to: "EUR" }, at).toFixed(), "0.92592593");
  }
});
