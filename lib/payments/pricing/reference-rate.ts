/**
 * Reference (mid-market) exchange rates: what the service prices with and what the pricing
 * envelope measures a partner's fx_rate against (decisions 6). The published feeds (ECB, pegs, a
 * secondary source) sit behind the same interface (published-rates.ts; rate-store.ts picks one);
 * the sandbox model below, the default, is deterministic so tests and partners can predict it.
 *
 * Sandbox model: rate(t) = mid x (1 + amplitude x sin(2 pi (m + phase) / 60)), where m is the
 * whole minute since the Unix epoch and phase a fixed per-pair offset, rounded as every rate is
 * (roundRate: half-even, six decimals for these pairs). The rate is constant within a minute, repeats every hour, and stays within
 * mid x (1 +- amplitude). The sine comes from a table of integers (parts per million), so the
 * arithmetic is Decimal throughout and identical on every platform; Math.sin is never called.
 */
import { Decimal, tryParseWireDecimal } from "@/lib/platform/money/decimal";
import { roundRate } from "@/lib/platform/money/format";
import { listCorridors } from "@/lib/payments/corridors/corridors";
import { type CurrencyPair, type ReferenceRateProvider } from "@/lib/platform/money/rates";
export { type CurrencyPair, type ReferenceRateProvider } from "@/lib/platform/money/rates";

/** round(sin(2 pi k / 60) x 10^6) for k = 0..15: the first quarter of a 60-minute wave. */
const QUARTER_SINE_PPM = [0, 104528, 207912, 309017, 406737, 500000, 587785, 669131, 743145, 809017, 866025, 913545, 951057, 978148, 994522, 1000000] as const;

const MINUTE_MS = 60_000;
const PERIOD_MINUTES = 60;
const QUARTER = 15;

/** sin(2 pi k / 60) in parts per million, for any integer k, by quarter-wave symmetry. */
export function sinePpm(k: number): number {
  const i = ((k % PERIOD_MINUTES) + PERIOD_MINUTES) % PERIOD_MINUTES;
  const quadrant = Math.floor(i / QUARTER);
  const r = i % QUARTER;
  const magnitude = quadrant % 2 === 0 ? QUARTER_SINE_PPM[r]! : QUARTER_SINE_PPM[QUARTER - r]!;
  return quadrant < 2 ? magnitude : -magnitude;
}

/** Whole minutes since the epoch; getTime() is an integer count of ms, so this is exact. */
function minuteIndex(now: Date): number {
  const ms = now.getTime();
  if (!Number.isFinite(ms)) throw new RangeError("Invalid date");
  return Math.floor(ms / MINUTE_MS);
}

/** Fixed offset per pair so the sandbox pairs do not all move in step. */
function phaseOf(key: string): number {
  let sum = 0;
  for (const ch of key) sum += ch.charCodeAt(0);
  return sum % PERIOD_MINUTES;
}

const pairKey = (pair: CurrencyPair) => `${pair.from}/${pair.to}`;

export interface SandboxPair extends CurrencyPair {
  mid: Decimal;
  /** Largest relative move either side of mid, a fraction (0.002 = 0.2%). */
  amplitude: Decimal;
}

export function createSandboxReferenceRates(pairs: readonly SandboxPair[]): ReferenceRateProvider {
  const byKey = new Map<string, SandboxPair>();
  for (const pair of pairs) {
    const known = byKey.get(pairKey(pair));
    if (known && !(known.mid.eq(pair.mid) && known.amplitude.eq(pair.amplitude))) {
      throw new Error(`Conflicting sandbox reference rates for ${pairKey(pair)}`);
    }
    byKey.set(pairKey(pair), pair);
  }
  const million = new Decimal(1_000_000);
  return {
    rate(pair, now) {
      const key = pairKey(pair);
      const entry = byKey.get(key);
      if (!entry) throw new RangeError(`No reference rate for ${key}`);
      const wobble = entry.amplitude.times(new Decimal(sinePpm(minuteIndex(now) + phaseOf(key)))).div(million);
      return roundRate(new Decimal(entry.mid).times(wobble.plus(1)));
    },
  };
}

/**
 * Cross rates between the corridors' origin currencies, both ways, for counting a transfer against
 * a partner's limits in its limit currency; fixed (no wobble): nothing is priced with them.
 */
const SANDBOX_CROSS_MIDS: readonly [string, string, string][] = [
  ["EUR", "USD", "1.08"],
  ["GBP", "USD", "1.27"],
  ["GBP", "EUR", "1.175"],
];
const sandboxCrossPairs: SandboxPair[] = SANDBOX_CROSS_MIDS.flatMap(([from, to, mid]) => [
  { from, to, mid: new Decimal(mid), amplitude: new Decimal(0) },
  { from: to, to: from, mid: roundRate(new Decimal(1).div(mid)), amplitude: new Decimal(0) },
]);

/** The sandbox provider over the corridor table's reference rates (and the cross rates above). */
export const sandboxReferenceRates: ReferenceRateProvider = createSandboxReferenceRates([
  ...listCorridors().map((c) => ({
    from: c.originCurrency,
    to: c.destinationCurrency,
    mid: c.referenceRate.mid,
    amplitude: c.referenceRate.amplitude,
  })),
  ...sandboxCrossPairs,
]);

/** A provider with fixed rates ("USD/MXN" -> "18.75"), for tests and local tools. */
export function constantReferenceRates(rates: Readonly<Record<string, string>>): ReferenceRateProvider {
  const byKey = new Map<string, Decimal>();
  for (const [key, value] of Object.entries(rates)) {
    const rate = tryParseWireDecimal(value);
    if (rate === null || rate.isZero()) throw new RangeError(`Not a rate: ${key} = ${value}`);
    byKey.set(key, rate);
  }
  return {
    rate(pair) {
      const rate = byKey.get(pairKey(pair));
      if (!rate) throw new RangeError(`No reference rate for ${pairKey(pair)}`);
      return rate;
    },
  };
}
