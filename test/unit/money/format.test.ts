import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import DecimalJs from "decimal.js";
import { Decimal } from "@/lib/platform/money/decimal";
import { fitsMinorUnit, formatRate, roundRate, roundToMinorUnit, toWireAmount } from "@/lib/platform/money/format";
import { divHalfEven, fromScaled, pow10, toScaled } from "./bigint-oracle";

const d = (s: string) => new Decimal(s);
const rounded = (s: string, currency: string) => roundToMinorUnit(d(s), currency).toFixed();

test("half-even at 0 decimals (XOF, JPY): ties go to the even neighbour", () => {
  const cases: [string, string][] = [
    ["0.5", "0"],
    ["1.5", "2"],
    ["2.5", "2"],
    ["3.5", "4"],
    ["4.5", "4"],
    ["2.4999", "2"],
    ["2.5001", "3"],
    ["6887.5485", "6888"],
    ["327978.5", "327978"],
    ["983935.5", "983936"],
  ];
  for (const currency of ["XOF", "JPY"]) {
    for (const [input, output] of cases) assert.equal(rounded(input, currency), output, `${input} ${currency}`);
  }
});

test("half-even at 2 decimals (USD)", () => {
  const cases: [string, string][] = [
    ["0.125", "0.12"],
    ["0.135", "0.14"],
    ["0.1251", "0.13"],
    ["0.115", "0.12"],
    ["10", "10"],
    ["1875.1234", "1875.12"],
  ];
  for (const [input, output] of cases) assert.equal(rounded(input, "USD"), output, input);
});

test("half-even at 3 decimals (KWD)", () => {
  const cases: [string, string][] = [
    ["1.0005", "1.000"],
    ["1.0015", "1.002"],
    ["1.23456", "1.235"],
    ["0.0025", "0.002"],
  ];
  for (const [input, output] of cases) assert.equal(roundToMinorUnit(d(input), "KWD").toFixed(3), output, input);
});

test("rounding ignores a global Decimal configured differently", () => {
  // A half-up global value must still round half-even once it reaches our functions.
  const foreign = new (DecimalJs.clone({ rounding: DecimalJs.ROUND_HALF_UP }))("2.5");
  assert.equal(roundToMinorUnit(foreign, "XOF").toFixed(), "2");
});

test("roundToMinorUnit agrees with a bigint half-even oracle", () => {
  fc.assert(
    fc.property(
      fc.bigInt({ min: 0n, max: 10n ** 18n }),
      fc.constantFrom(["XOF", 0], ["JPY", 0], ["USD", 2], ["MXN", 2], ["KWD", 3]),
      (scaled, [currency, places]) => {
        const input = fromScaled(scaled, 9);
        const expected = fromScaled(divHalfEven(scaled, pow10(9 - places)), places);
        assert.equal(roundToMinorUnit(d(input), currency).toFixed(places), expected);
      },
    ),
  );
});

test("toWireAmount: exactly six decimals, never rounds", () => {
  assert.equal(toWireAmount(d("10.5")), "10.500000");
  assert.equal(toWireAmount(d("0")), "0.000000");
  assert.equal(toWireAmount(d("-0")), "0.000000");
  assert.equal(toWireAmount(1875n), "1875.000000");
  assert.equal(toWireAmount(d("0.000001")), "0.000001");
  assert.equal(toWireAmount(d("12.3"), 2), "12.30");
  assert.throws(() => toWireAmount(d("0.0000001")), RangeError);
  assert.throws(() => toWireAmount(d("-1")), RangeError);
  assert.throws(() => toWireAmount(d("NaN")), RangeError);
  assert.throws(() => toWireAmount(d("Infinity")), RangeError);
});

test("toWireAmount round-trips through the wire parser", () => {
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 10n ** 20n }), (scaled) => {
      const wire = toWireAmount(d(fromScaled(scaled, 6)));
      assert.match(wire, /^(0|[1-9]\d*)\.\d{6}$/);
      assert.equal(toScaled(wire, 6), scaled);
    }),
  );
});

test("rates: six decimals, half-even", () => {
  assert.equal(formatRate(d("18.75")), "18.750000");
  assert.equal(formatRate(d("655.957")), "655.957000");
  assert.equal(formatRate(d("18.7500005")), "18.750000");
  assert.equal(formatRate(d("18.7500015")), "18.750002");
  assert.equal(roundRate(d("18.7512345")).toFixed(), "18.751234");
  assert.throws(() => formatRate(d("0")), RangeError);
  assert.throws(() => formatRate(d("-1")), RangeError);
});

test("fitsMinorUnit ignores trailing zeros", () => {
  assert.equal(fitsMinorUnit(d("10.120000"), "USD"), true);
  assert.equal(fitsMinorUnit(d("10.123"), "USD"), false);
  assert.equal(fitsMinorUnit(d("5.000000"), "XOF"), true);
  assert.equal(fitsMinorUnit(d("5.5"), "XOF"), false);
  assert.equal(fitsMinorUnit(d("1.234"), "KWD"), true);
});

test("small rates keep eight significant digits instead of six decimals", () => {
  assert.equal(formatRate(d("1.23456789")), "1.2345679");
  assert.equal(formatRate(d("1.5")), "1.500000");
  assert.equal(formatRate(d("0.0000421234567")), "0.000042123457");
  assert.equal(formatRate(d("0.0000010064")), "0.0000010064");
  assert.equal(formatRate(d("123456.1234565")), "123456.123456");
  assert.equal(roundRate(d("0.999999995")).toFixed(), "1");
});
