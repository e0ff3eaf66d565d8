import { minorUnitExponent } from "@/lib/platform/money/currency";

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * A non-negative decimal string (transfers store six places, "102.990000") as integer minor
 * units of the currency (10299n for EUR). Exact: refuses (RangeError) a value that is not a whole
 * number of minor units ("1.005" in EUR) or is not a plain decimal; never rounds.
 */
export function toMinor(value: string, currency: string): bigint {
  const exponent = minorUnitExponent(currency);
  const m = DECIMAL.exec(value.trim());
  if (!m) throw new RangeError(`Not a decimal amount: ${JSON.stringify(value)}`);
  const fraction = m[2] ?? "";
  const kept = fraction.slice(0, exponent).padEnd(exponent, "0");
  if (/[^0]/.test(fraction.slice(exponent))) throw new RangeError(`${value} ${currency} is not a whole number of minor units`);
  return BigInt(m[1] + kept);
}

/** Minor units as a decimal string with the currency's places (10299n EUR → "102.99"; -5n → "-0.05"). */
export function fromMinor(minor: bigint, currency: string): string {
  const exponent = minorUnitExponent(currency);
  const sign = minor < 0n ? "-" : "";
  const digits = (minor < 0n ? -minor : minor).toString().padStart(exponent + 1, "0");
  if (exponent === 0) return sign + digits;
  return `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}
