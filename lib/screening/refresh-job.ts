import { z } from "zod";
import type { Db } from "@/db";
import { addSeconds, clock } from "@/lib/clock";
import { config } from "@/lib/config";
import { defineJob } from "@/lib/jobs/define";
import { enqueue } from "@/lib/jobs/queue";
import { logger } from "@/lib/log";
import { importPublication, shippedSources } from "./list-store";

/**
 * Loads the sanctions list: SANCTIONS_SOURCE_URLS when set (production), else the copy shipped in
 * data/sanctions. Fetches outside any transaction, stores in one (a known content hash is a
 * no-op), and with URLs set comes back every SANCTIONS_REFRESH_HOURS.
 */
export const refreshSanctionsList = defineJob({
  kind: "sanctions.refresh",
  schema: z.object({}).strict() as z.ZodType<Record<string, never>>,
  perform: async (db, { signal }) => {
    const urls = config().SANCTIONS_SOURCE_URLS;
    const report = await importPublication(db, urls.length ? urls : shippedSources(), clock.now(), signal);
    if (report.created) logger().info({ ...report }, "sanctions list version stored");
    if (urls.length) await scheduleRefresh(db, config().SANCTIONS_REFRESH_HOURS * 3600);
  },
});

/**
 * Enqueues the next refresh `afterSeconds` from now. The dedupe key names the time slot, so a
 * restart and the job's own rescheduling never stack two refreshes for one slot.
 */
export async function scheduleRefresh(db: Db, afterSeconds = 0): Promise<void> {
  const runAt = addSeconds(clock.now(), afterSeconds);
  const slot = afterSeconds === 0 ? "start" : String(Math.floor(runAt.getTime() / (config().SANCTIONS_REFRESH_HOURS * 3_600_000)));
  await enqueue(db, "sanctions.refresh", {}, { runAt, dedupeKey: `sanctions.refresh:${slot}`, maxAttempts: 10 });
}
