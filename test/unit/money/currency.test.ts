import { test } from "node:test";
import assert from "node:assert/strict";
import { isCurrencyCode, minorUnitExponent } from "@/lib/platform/money/currency";

test("minor-unit exponents follow ISO 4217", () => {
  const expected: Record<string, number> = {
    USD: 2,
    EUR: 2,
    GBP: 2,
    MXN: 2,
    PHP: 2,
    NGN: 2,
    COP: 2,
    JPY: 0,
    XOF: 0,
    KRW: 0,
    KWD: 3,
    BHD: 3,
    CLF: 4,
  };
  for (const [code, digits] of Object.entries(expected)) assert.equal(minorUnitExponent(code), digits, code);
});

test("currency validity: upper-case ISO codes with a defined minor unit only", () => {
  for (const good of ["USD", "XOF", "KWD", "JPY"]) assert.equal(isCurrencyCode(good), true, good);
  // XXX, XAU, XDR and XTS have minor unit "N.A." in ISO 4217: not money we move.
  for (const bad of ["usd", "Usd", "ABC", "US", "USDX", "", "XXX", "XAU", "XDR", "XTS", 840, null, undefined]) {
    assert.equal(isCurrencyCode(bad), false, String(bad));
  }
});

test("minorUnitExponent refuses a non-currency instead of guessing", () => {
  assert.throws(() => minorUnitExponent("ABC"), RangeError);
  assert.throws(() => minorUnitExponent("XAU"), RangeError);
  assert.throws(() => minorUnitExponent("usd"), RangeError);
});
