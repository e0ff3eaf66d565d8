import { test } from "node:test";
import assert from "node:assert/strict";
import DecimalJs from "decimal.js";
import { DomainError } from "@/lib/platform/errors";
import { Decimal, MAX_WIRE_DECIMAL_LENGTH, isWireDecimal, parseWireDecimal, toDecimal, tryParseWireDecimal } from "@/lib/platform/money/decimal";
import { fromScaled, toScaled } from "./bigint-oracle";

test("wire decimals accepted", () => {
  for (const s of ["0", "0.0", "0.5", "7", "10.500000", "1234567890.123456", "1000000.000000"]) {
    assert.equal(isWireDecimal(s), true, s);
    assert.equal(tryParseWireDecimal(s)!.toFixed(), new Decimal(s).toFixed(), s);
  }
});

test("wire decimals rejected: signs, exponents, padding, separators, numbers", () => {
  const bad: unknown[] = [
    "",
    ".5",
    "1.",
    "01",
    "00",
    "00.5",
    "+1",
    "-1",
    "-0",
    "1e3",
    "1E3",
    " 1",
    "1 ",
    "1,5",
    "1_000",
    "0x10",
    "Infinity",
    "NaN",
    "１",
    "1.2.3",
    "٣",
    1,
    1.5,
    0,
    null,
    undefined,
    {},
    10n,
  ];
  for (const value of bad) {
    assert.equal(isWireDecimal(value), false, String(value));
    assert.equal(tryParseWireDecimal(value), null, String(value));
  }
});

test("overlong strings are refused before they reach decimal.js", () => {
  const ok = "1" + "0".repeat(MAX_WIRE_DECIMAL_LENGTH - 1);
  assert.equal(isWireDecimal(ok), true);
  assert.equal(isWireDecimal(ok + "0"), false);
});

test("parseWireDecimal: a 400 validation error naming the field", () => {
  assert.equal(parseWireDecimal("10.500000", "originAmount").eq("10.5"), true);
  assert.throws(
    () => parseWireDecimal(10.5, "originAmount"),
    (err: unknown) => {
      assert.ok(err instanceof DomainError);
      assert.equal(err.code, "validation.fieldFormatInvalid");
      assert.equal(err.status, 400);
      assert.deepEqual(
        (err.details?.issues as { field: string; code: string }[]).map(({ field, code }) => ({ field, code })),
        [{ field: "originAmount", code: "validation.fieldFormatInvalid" }],
      );
      return true;
    },
  );
});

test("the clone is isolated from the global decimal.js configuration", () => {
  const saved = { precision: DecimalJs.precision, rounding: DecimalJs.rounding };
  try {
    DecimalJs.set({ precision: 5, rounding: DecimalJs.ROUND_UP });
    assert.equal(Decimal.precision, 40);
    assert.equal(Decimal.rounding, Decimal.ROUND_HALF_EVEN);
    assert.equal(new Decimal("1").div(3).toFixed(), "0." + "3".repeat(40));
    // A value from the global constructor takes our configuration once passed through toDecimal.
    assert.equal(toDecimal(new DecimalJs("2")).div(3).toFixed(), "0." + "6".repeat(39) + "7");
  } finally {
    DecimalJs.set(saved);
  }
});

test("toDecimal: bigint is exact, numbers are refused", () => {
  assert.equal(toDecimal(123456789012345678901234567890n).toFixed(), "123456789012345678901234567890");
  assert.throws(() => toDecimal(1.5 as unknown as bigint), TypeError);
});

test("products of wire values stay exact at 40 digits", () => {
  const amount = new Decimal("999999999999999.999999");
  const rate = new Decimal("99999.999999");
  // 32 significant digits: exact, no rounding happened (checked against bigint arithmetic).
  const product = toScaled("999999999999999.999999", 6) * toScaled("99999.999999", 6);
  assert.equal(amount.times(rate).toFixed(12), fromScaled(product, 12));
});
