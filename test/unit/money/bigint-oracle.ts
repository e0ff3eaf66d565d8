/**
 * Independent arithmetic for tests: decimal strings as bigint scaled integers, with half-even
 * division written from its definition. Shares no code with lib/platform/money, so agreement between the
 * two is evidence rather than tautology.
 */

/** "12.5" at scale 3 -> 12500n; throws if the string has more than `scale` decimals. */
export function toScaled(value: string, scale: number): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(value);
  if (!match) throw new Error(`not a decimal: ${value}`);
  const fraction = match[2] ?? "";
  if (fraction.length > scale) throw new Error(`${value} has more than ${scale} decimals`);
  return BigInt(match[1]! + fraction.padEnd(scale, "0"));
}

/** 12500n at scale 3 -> "12.500". */
export function fromScaled(value: bigint, scale: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, "0");
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

/** n / d for n >= 0, d > 0, rounded to the nearest integer, ties to the even neighbour. */
export function divHalfEven(n: bigint, d: bigint): bigint {
  const q = n / d;
  const twiceRemainder = (n % d) * 2n;
  if (twiceRemainder > d) return q + 1n;
  if (twiceRemainder < d) return q;
  return q % 2n === 0n ? q : q + 1n;
}

export const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** Count of decimals of a decimal string, ignoring trailing zeros. */
export function significantDecimals(value: string): number {
  const fraction = value.split(".")[1] ?? "";
  return fraction.replace(/0+$/, "").length;
}
