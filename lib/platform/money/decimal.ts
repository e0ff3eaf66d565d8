/**
 * The only Decimal constructor money code uses: a private clone of decimal.js, so no other
 * module's global Decimal.set() can change our precision or rounding.
 *
 * precision 40 significant digits: an amount below 10^15 with six decimals times a rate with
 * six decimals has at most 34 significant digits, so sums and products of wire values are exact
 * and rounding happens only where the rules in format.ts say so. Default rounding is half-even;
 * every explicit rounding call still names its mode.
 * toExpNeg/toExpPos keep toString() in plain notation, since exponent notation is not a wire form.
 */
import DecimalJs from "decimal.js";
import { validationError } from "@/lib/platform/errors";

export const Decimal = DecimalJs.clone({
  precision: 40,
  rounding: DecimalJs.ROUND_HALF_EVEN,
  toExpNeg: -40,
  toExpPos: 40,
});
export type Decimal = DecimalJs;

/**
 * What money functions accept: a Decimal (from any decimal.js constructor) or an integer bigint.
 * JS numbers are excluded on purpose, and so are strings: untrusted text goes through
 * parseWireDecimal, which is strict where the Decimal constructor is lenient ("1e3", "-0x1f").
 */
export type DecimalInput = Decimal | bigint;

/**
 * Wire decimal: unsigned, no exponent, no leading zeros, no leading or trailing dot, no
 * whitespace, no sign. "0.5" and "10.500000" pass; ".5", "1.", "01", "+1", "1e3", " 1" do not.
 */
export const WIRE_DECIMAL = /^(0|[1-9]\d*)(\.\d+)?$/;

/**
 * Longest wire decimal read. 40 characters keep every parsed value within the 40-digit
 * precision (so parsing never rounds) and bound the work an untrusted string can cause.
 */
export const MAX_WIRE_DECIMAL_LENGTH = 40;

export function isWireDecimal(value: unknown): value is string {
  return typeof value === "string" && value.length <= MAX_WIRE_DECIMAL_LENGTH && WIRE_DECIMAL.test(value);
}

/** The value of a wire decimal string, or null for anything else (including JS numbers). */
export function tryParseWireDecimal(value: unknown): Decimal | null {
  return isWireDecimal(value) ? new Decimal(value) : null;
}

/**
 * The value of a wire decimal string; anything else is a 400 validation error on `field`.
 * Numbers are refused even when integral: a JSON number may already have lost digits.
 */
export function parseWireDecimal(value: unknown, field = "amount"): Decimal {
  const parsed = tryParseWireDecimal(value);
  if (parsed === null) {
    throw validationError([{ field, code: "validation.fieldFormatInvalid", message: "Expected a decimal string such as 10.500000." }]);
  }
  return parsed;
}

/**
 * A Decimal in our clone's configuration. decimal.js runs each operation with the settings of
 * the left operand's constructor, so a value built by the global Decimal (precision 20, half-up)
 * would otherwise round differently inside our arithmetic.
 */
export function toDecimal(value: DecimalInput): Decimal {
  if (typeof value === "bigint") return new Decimal(value.toString());
  if (!DecimalJs.isDecimal(value)) throw new TypeError("Money values must be Decimal or bigint, never number.");
  return new Decimal(value);
}
