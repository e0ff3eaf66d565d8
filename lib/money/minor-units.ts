/**
 * Money as an integer count of minor units (cents, centimes, whole francs for XOF), for
 * storage in integer columns and for exact integer arithmetic.
 */
import { Decimal, toDecimal, type DecimalInput } from "./decimal";
import { minorUnitExponent } from "./currency";

/** The amount in minor units; throws when it has digits below the minor unit (no silent rounding). */
export function toMinorUnits(value: DecimalInput, currency: string): bigint {
  const scaled = toDecimal(value).times(new Decimal(10).pow(minorUnitExponent(currency)));
  if (!scaled.isInteger()) throw new RangeError(`${toDecimal(value).toString()} ${currency} is not a whole number of minor units`);
  return BigInt(scaled.toFixed(0));
}

export function fromMinorUnits(units: bigint, currency: string): Decimal {
  return new Decimal(units.toString()).div(new Decimal(10).pow(minorUnitExponent(currency)));
}
