import { z } from "zod";
import { config } from "@/lib/platform/config";
import { defineJob } from "@/lib/platform/jobs/define";
import { logger } from "@/lib/platform/log";
import { fetchDocument } from "@/lib/platform/fetch-document";
import { inUnit } from "@/lib/platform/unit-of-work";
import { providers } from "@/lib/payments/providers";
import { parseEcbDaily, parseSecondary, type RateSet } from "./rate-feeds";
import { storeRateSets } from "./rate-store";

/** Feeds are a few kilobytes; a larger answer is not the feed. */
const MAX_FEED_BYTES = 1_000_000;

async function fetchFeed(url: string, signal: AbortSignal): Promise<string> {
  const body = await fetchDocument(url, { maxBytes: MAX_FEED_BYTES, signal, accept: "application/xml, application/json, text/*" });
  return body.toString("utf8");
}

/**
 * Fetches the configured reference-rate feeds and stores what parsed. Periodic,
 * every REFERENCE_RATES_REFRESH_MINUTES. Fetching happens outside any transaction; the sets are
 * stored in one. A feed that fails (unreachable, malformed) stores nothing, so the last good rates
 * keep serving, and the run fails so the worker retries it with backoff.
 */
export const refreshReferenceRates = defineJob({
  kind: "referenceRates.refresh",
  get every() {
    return config().REFERENCE_RATES_REFRESH_MINUTES * 60;
  },
  schema: z.object({}).strict() as z.ZodType<Record<string, never>>,
  perform: async (db, { now, signal }) => {
    if (providers().referenceRates !== "ecb") return;
    const c = config();
    const feeds: [string | undefined, (text: string) => RateSet][] = [
      [c.REFERENCE_RATES_URL, parseEcbDaily],
      [c.REFERENCE_RATES_SECONDARY_URL, parseSecondary],
    ];
    const sets: RateSet[] = [];
    const failures: string[] = [];
    for (const [url, parse] of feeds) {
      if (!url) continue;
      try {
        sets.push(parse(await fetchFeed(url, signal)));
      } catch (err) {
        failures.push((err as Error).message);
      }
    }
    if (sets.length > 0) await inUnit(({ tx }) => storeRateSets(tx, sets, now), { db, now });
    for (const set of sets)
      logger().info({ source: set.source, publishedAt: set.publishedAt, currencies: Object.keys(set.rates).length }, "reference rates fetched");
    if (failures.length > 0) throw new Error(`reference rates refresh failed: ${failures.join("; ")}`);
  },
});
