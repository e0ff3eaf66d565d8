/**
 * Rounding and wire formatting of money. Rules (copied into docs/decisions.md):
 *
 * 1. Money is never a JS number. Values are Decimal (our 40-digit clone);
 *    wire values are decimal strings parsed strictly (decimal.ts).
 * 2. One rounding mode everywhere: half-even (banker's rounding), so rounding errors do not
 *    drift one way over many transfers: 2.5 -> 2, 3.5 -> 4, 0.125 -> 0.12 at 2 decimals.
 * 3. Rounding happens at exactly two points:
 *    - an exchange rate is rounded before use, so the rate shown to the customer is the rate the
 *      amounts were computed with: to 6 decimals, or more when needed to keep 8 significant
 *      digits (18.7512345 -> 18.751234, but 0.0000010064 stays 0.0000010064), since six decimals
 *      alone would shift a small rate such as 0.000042 by more than any FX tolerance;
 *    - a converted amount (send amount x rate) is rounded to the destination currency's ISO 4217
 *      minor unit (USD 2, JPY 0, XOF 0, KWD 3).
 *    Sums (send amount + fees) are never rounded: their inputs already have at most the origin
 *    currency's minor-unit decimals, so the sum is exact.
 * 4. Wire form: every Core API amount has exactly six decimals (spec 2.1 and 8), "1875.500000",
 *    whatever the currency's minor unit. Writing an amount that has more than six decimals is a
 *    programming error and throws instead of rounding silently.
 * 5. Reading: amounts are compared as numbers, never as strings ("10.5" equals "10.500000").
 */
import { Decimal, toDecimal, type DecimalInput } from "./decimal";
import { minorUnitExponent } from "./currency";

/** Decimal places of every Core API amount (spec 2.1, 8). */
export const WIRE_AMOUNT_PLACES = 6;
/** An exchange rate keeps at least this many decimals... */
export const RATE_MIN_PLACES = 6;
/** ...and at least this many significant digits (relative rounding error below 1e-7). */
export const RATE_MIN_SIGNIFICANT_DIGITS = 8;

/** Fixed-decimal string without a minus sign on zero (decimal.js keeps -0 and prints "-0.00"). */
function fixed(d: Decimal, places: number): string {
  return (d.isZero() ? new Decimal(0) : d).toFixed(places);
}

/**
 * Wire form of a non-negative amount with exactly `places` decimals. Throws rather than rounds
 * when the value has more decimals: losing money in a formatter would hide a pricing bug.
 */
export function toWireAmount(value: DecimalInput, places = WIRE_AMOUNT_PLACES): string {
  const d = toDecimal(value);
  if (!d.isFinite() || (d.isNeg() && !d.isZero())) throw new RangeError(`Not a wire amount: ${d.toString()}`);
  if (d.decimalPlaces() > places) throw new RangeError(`${d.toString()} has more than ${places} decimals`);
  return fixed(d, places);
}

/** The amount rounded half-even to the currency's minor unit (XOF 2.5 -> 2, USD 0.125 -> 0.12). */
export function roundToMinorUnit(value: DecimalInput, currency: string): Decimal {
  return toDecimal(value).toDecimalPlaces(minorUnitExponent(currency), Decimal.ROUND_HALF_EVEN);
}

/** True when the amount needs no rounding in that currency (no sub-minor-unit digits). */
export function fitsMinorUnit(value: DecimalInput, currency: string): boolean {
  return toDecimal(value).decimalPlaces() <= minorUnitExponent(currency);
}

/**
 * The rate rounded half-even to max(6 decimals, 8 significant digits): the rate that is both
 * used and shown. 18.7512345 -> 18.751234, 1.23456789 -> 1.2345679, 0.0000421234567 -> 0.000042123457.
 */
export function roundRate(value: DecimalInput): Decimal {
  const d = toDecimal(value);
  if (d.isZero() || !d.isFinite()) return d;
  // d.e is the power of ten of the first significant digit (18.75 -> 1, 0.000042 -> -5).
  const places = Math.max(RATE_MIN_PLACES, RATE_MIN_SIGNIFICANT_DIGITS - 1 - d.e);
  return d.toDecimalPlaces(places, Decimal.ROUND_HALF_EVEN);
}

/** Wire form of an exchange rate, rounded by roundRate, with at least six decimals ("18.750000"). */
export function formatRate(value: DecimalInput): string {
  const d = toDecimal(value);
  if (!d.isFinite() || !d.isPos() || d.isZero()) throw new RangeError(`Not an exchange rate: ${d.toString()}`);
  const rounded = roundRate(d);
  return fixed(rounded, Math.max(RATE_MIN_PLACES, rounded.decimalPlaces()));
}
