/**
 * Stored reference rates (table reference_rate_sets) and the provider quotes price with.
 * REFERENCE_RATES_PROVIDER (lib/payments/providers) picks: "sandbox", the deterministic rates (the default);
 * "ecb" (inferred from REFERENCE_RATES_URL), the newest stored set of each source (the last good rates: a failed fetch stores nothing).
 */
import { desc, eq } from "drizzle-orm";
import type { Executor, Tx } from "@/db";
import { referenceRateSets } from "@/db/schema";
import { config } from "@/lib/platform/config";
import { providers } from "@/lib/payments/providers";
import { publishedReferenceRates } from "./published-rates";
import type { RateSet, RateSource } from "./rate-feeds";
import { sandboxReferenceRates, type ReferenceRateProvider } from "./reference-rate";

/** Stores fetched sets; a publication already stored is kept as it is (a refetch changes nothing). */
export async function storeRateSets(tx: Tx, sets: readonly RateSet[], fetchedAt: Date): Promise<void> {
  for (const set of sets) {
    await tx
      .insert(referenceRateSets)
      .values({ source: set.source, base: set.base, publishedAt: set.publishedAt, rates: set.rates, fetchedAt })
      .onConflictDoNothing();
  }
}

async function newest(ex: Executor, source: RateSource): Promise<RateSet | undefined> {
  const [row] = await ex.select().from(referenceRateSets).where(eq(referenceRateSets.source, source)).orderBy(desc(referenceRateSets.publishedAt)).limit(1);
  return row && { source, base: row.base, publishedAt: row.publishedAt, rates: row.rates };
}

/** The newest stored set of each source. */
export async function latestRateSets(ex: Executor): Promise<{ ecb?: RateSet; secondary?: RateSet }> {
  const [ecb, secondary] = [await newest(ex, "ecb"), await newest(ex, "secondary")];
  return { ecb, secondary };
}

/** The reference rates quotes are priced and checked with now (see the module comment). */
export async function referenceRates(ex: Executor): Promise<ReferenceRateProvider> {
  if (providers().referenceRates !== "ecb") return sandboxReferenceRates;
  const c = config();
  return publishedReferenceRates({ sets: await latestRateSets(ex), pegs: c.REFERENCE_RATE_PEGS, maxAgeHours: c.REFERENCE_RATE_MAX_AGE_HOURS });
}
