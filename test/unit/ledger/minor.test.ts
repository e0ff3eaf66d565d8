/** Decimal strings to integer minor units and back (lib/finance/ledger/minor.ts): exact or refused. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { fromMinor, toMinor } from "@/lib/finance/ledger";

test("toMinor converts six-place wire amounts exactly per the currency's exponent", () => {
  assert.equal(toMinor("102.990000", "EUR"), 10299n);
  assert.equal(toMinor("0.010000", "USD"), 1n);
  assert.equal(toMinor("1500.000000", "JPY"), 1500n);
  assert.equal(toMinor("1.234000", "KWD"), 1234n);
  assert.equal(toMinor("7", "EUR"), 700n);
  assert.equal(toMinor("90071992547409.930000", "USD"), 9007199254740993n); // beyond a float's integers
});

test("toMinor refuses a value that is not a whole number of minor units, or not a plain decimal", () => {
  assert.throws(() => toMinor("1.005000", "EUR"), RangeError);
  assert.throws(() => toMinor("1.5", "JPY"), RangeError);
  assert.throws(() => toMinor("-1.00", "EUR"), RangeError);
  assert.throws(() => toMinor("1e3", "EUR"), RangeError);
  assert.throws(() => toMinor("1.00", "XAU"), RangeError);
});

test("fromMinor writes the currency's places", () => {
  assert.equal(fromMinor(10299n, "EUR"), "102.99");
  assert.equal(fromMinor(5n, "EUR"), "0.05");
  assert.equal(fromMinor(-5n, "EUR"), "-0.05");
  assert.equal(fromMinor(1500n, "JPY"), "1500");
  assert.equal(fromMinor(1234n, "KWD"), "1.234");
  assert.equal(fromMinor(0n, "USD"), "0.00");
});
