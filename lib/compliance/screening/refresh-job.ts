import { z } from "zod";
import type { Db } from "@/db";
import { addSeconds, clock } from "@/lib/platform/clock";
import { config, type Config } from "@/lib/platform/config";
import { defineJob } from "@/lib/platform/jobs/define";
import { effectsOf } from "@/lib/platform/unit-of-work";
import { logger } from "@/lib/platform/log";
import { importPublication, shippedSources } from "./list-store";
import { LIST_FORMATS } from "./sources";

/** Each list's source setting: its URLs (or files) when set, else the copy shipped in data/sanctions. */
const SOURCE_SETTING: Record<string, keyof Config> = {
  "ofac-sdn": "SANCTIONS_SOURCE_URLS",
  "ofac-consolidated": "SANCTIONS_OFAC_CONSOLIDATED_URLS",
  "un-consolidated": "SANCTIONS_UN_URLS",
  // Production requires it (lib/platform/providers/table.ts, pep): the shipped PEP fixture is made up.
  "opensanctions-peps": "PEP_SOURCE_URLS",
};

/** Every list loaded and refreshed: the sanctions lists and the PEP list. */
const REFRESHED = Object.keys(LIST_FORMATS);

function sourceUrls(list: string): string[] {
  return config()[SOURCE_SETTING[list]] as string[];
}

/**
 * Loads one list (or, for a payload without a list, each in turn): its source setting when set
 * (production), else the copy shipped in data/sanctions/<list> (the PEP list: the made-up fixture
 * in data/pep, which production never loads: it requires PEP_SOURCE_URLS). Fetches outside any
 * transaction, stores in one (a known content hash is a no-op), and for a list with URLs set
 * comes back every SANCTIONS_REFRESH_HOURS. Each list has its own versions: a new version of any
 * of them rescreens every active subject (list-store.ts).
 */
export const refreshSanctionsList = defineJob({
  kind: "sanctions.refresh",
  schema: z.object({ list: z.enum(REFRESHED as [string, ...string[]]).optional() }).strict(),
  perform: async (db, { payload, signal }) => {
    for (const list of payload.list ? [payload.list] : REFRESHED) {
      const urls = sourceUrls(list);
      const report = await importPublication(db, urls.length ? urls : shippedSources(list), clock.now(), signal);
      if (report.created) logger().info({ ...report }, "sanctions list version stored");
      if (urls.length) await scheduleRefresh(db, config().SANCTIONS_REFRESH_HOURS * 3600, list);
    }
  },
});

/**
 * Enqueues the refresh of one list (or of each, at start) `afterSeconds` from now. The dedupe key
 * names the list and the time slot, so a restart and the job's own rescheduling never stack two
 * refreshes of one list for one slot.
 */
export async function scheduleRefresh(db: Db, afterSeconds = 0, list?: string): Promise<void> {
  const runAt = addSeconds(clock.now(), afterSeconds);
  const slot = afterSeconds === 0 ? "start" : String(Math.floor(runAt.getTime() / (config().SANCTIONS_REFRESH_HOURS * 3_600_000)));
  for (const l of list ? [list] : REFRESHED) {
    await effectsOf(db).jobs.schedule("sanctions.refresh", { list: l }, { runAt, dedupeKey: `sanctions.refresh:${l}:${slot}`, maxAttempts: 10 });
  }
}
