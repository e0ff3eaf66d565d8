/**
 * ISO 4217 currencies and their minor-unit exponents, from the `currency-codes` package (the ISO
 * list-one data: USD 2, JPY 0, XOF 0, KWD 3, CLF 4). The exponent decides where every amount in
 * that currency is rounded, so it is looked up here and nowhere else.
 */
import { code as lookupCurrency } from "currency-codes";

/**
 * Codes whose ISO minor unit is "N.A." (precious metals, bond-market units, SDR, Sucre, ADB unit,
 * the test code and "no currency"). `currency-codes` reports them with 0 digits, which would
 * silently price them as whole-unit currencies, so they are not money this service can move.
 */
const NOT_TRANSACTIONAL = new Set(["XAG", "XAU", "XBA", "XBB", "XBC", "XBD", "XDR", "XPD", "XPT", "XSU", "XTS", "XUA", "XXX"]);

const SHAPE = /^[A-Z]{3}$/;

/**
 * Each code's minor-unit digits, null for no currency, kept once looked up: `currency-codes`
 * scans its whole list per lookup, several times per priced quote. Only codes of
 * SHAPE are kept (at most 26³).
 */
const digitsByCode = new Map<string, number | null>();

function digitsOf(value: string): number | null {
  let digits = digitsByCode.get(value);
  if (digits === undefined) digitsByCode.set(value, (digits = NOT_TRANSACTIONAL.has(value) ? null : (lookupCurrency(value)?.digits ?? null)));
  return digits;
}

/** True for an active ISO 4217 code with a defined minor unit (upper case only, as on the wire). */
export function isCurrencyCode(value: unknown): value is string {
  return typeof value === "string" && SHAPE.test(value) && digitsOf(value) !== null;
}

/** Decimal places of the currency's minor unit; throws for a code that is not a currency. */
export function minorUnitExponent(currency: string): number {
  const digits = typeof currency === "string" && SHAPE.test(currency) ? digitsOf(currency) : null;
  if (digits === null) throw new RangeError(`Not an ISO 4217 currency with a minor unit: ${currency}`);
  return digits;
}
