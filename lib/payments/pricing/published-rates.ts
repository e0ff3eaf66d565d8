/**
 * A ReferenceRateProvider over published rate sets: every currency is valued in
 * units per one EUR, and a pair's rate is the cross rate through EUR, in Decimal (never floats).
 *
 * Precedence, per currency: a configured peg (fixed by treaty, e.g. XOF at 655.957 per EUR) first,
 * then the ECB, then the secondary source (which fills only what the others lack). A pair is as
 * old as the oldest publication it uses; older than the maximum age, or a currency no source
 * carries, and the pair is unavailable (503 internal.unavailable): never priced from stale data
 * and never from the sandbox's synthetic rates.
 */
import { DomainError } from "@/lib/platform/errors";
import { Decimal } from "@/lib/platform/money/decimal";
import { roundRate } from "@/lib/platform/money/format";
import type { RateSet } from "./rate-feeds";
import type { ReferenceRateProvider } from "./reference-rate";

export interface Peg {
  currency: string;
  anchor: string;
  /** Units of `currency` per one `anchor`. */
  rate: string;
}

interface Valued {
  perEur: Decimal;
  /** The oldest publication this value depends on; null for a peg to the euro (never stale). */
  publishedAt: Date | null;
  source: string;
}

const older = (a: Date | null, b: Date | null) => (a === null ? b : b === null ? a : a < b ? a : b);

/** Units per EUR of every currency the sets and pegs carry, with the precedence above. */
export function valuesPerEur(sets: { ecb?: RateSet; secondary?: RateSet }, pegs: readonly Peg[]): Map<string, Valued> {
  const values = new Map<string, Valued>([["EUR", { perEur: new Decimal(1), publishedAt: null, source: "EUR" }]]);
  if (sets.ecb) {
    for (const [currency, rate] of Object.entries(sets.ecb.rates)) {
      values.set(currency, { perEur: new Decimal(rate), publishedAt: sets.ecb.publishedAt, source: "ecb" });
    }
    values.get("EUR")!.publishedAt = null;
  }
  // Pegs read their anchor from the euro or the ECB only, so their order does not matter.
  const fromFeeds = new Map(values);
  for (const peg of pegs) {
    const anchor = fromFeeds.get(peg.anchor);
    if (!anchor) continue;
    values.set(peg.currency, { perEur: anchor.perEur.times(peg.rate), publishedAt: anchor.publishedAt, source: `peg to ${peg.anchor}` });
  }
  const secondary = sets.secondary;
  const base = secondary && values.get(secondary.base);
  if (secondary && base) {
    for (const [currency, rate] of Object.entries(secondary.rates)) {
      if (values.has(currency)) continue;
      values.set(currency, {
        perEur: base.perEur.times(rate),
        publishedAt: older(base.publishedAt, secondary.publishedAt),
        source: "secondary",
      });
    }
  }
  return values;
}

const unavailable = (message: string, details: Record<string, unknown>) =>
  new DomainError("internal.unavailable", { message, details, remediation: "retry_later" });

export function publishedReferenceRates(input: {
  sets: { ecb?: RateSet; secondary?: RateSet };
  pegs: readonly Peg[];
  maxAgeHours: number;
}): ReferenceRateProvider {
  const values = valuesPerEur(input.sets, input.pegs);
  const maxAgeMs = input.maxAgeHours * 3_600_000;
  return {
    rate(pair, now) {
      const key = `${pair.from}/${pair.to}`;
      const from = values.get(pair.from);
      const to = values.get(pair.to);
      const missing = [from ? null : pair.from, to ? null : pair.to].filter(Boolean);
      if (!from || !to) {
        throw unavailable(`No reference rate source carries ${missing.join(" or ")}: quotes for ${key} are unavailable.`, {
          pair: key,
          missingCurrencies: missing,
        });
      }
      const publishedAt = older(from.publishedAt, to.publishedAt);
      if (publishedAt && now.getTime() - publishedAt.getTime() > maxAgeMs) {
        throw unavailable(
          `The reference rates for ${key} were published at ${publishedAt.toISOString()}, more than ${input.maxAgeHours} hours ago; new quotes are refused until fresher rates are fetched.`,
          { pair: key, publishedAt: publishedAt.toISOString(), maxAgeHours: input.maxAgeHours },
        );
      }
      return roundRate(to.perEur.div(from.perEur));
    },
  };
}
