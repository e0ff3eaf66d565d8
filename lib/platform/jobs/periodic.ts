import type { Db } from "@/db";
import { clock } from "@/lib/platform/clock";
import type { JobRegistry } from "./define";
import { insertJob, periodicKey } from "./queue";

/**
 * Schedules every periodic kind of the registry (those with `every`) to run now, under the one key
 * of its series: any number of nodes starting leave one waiting job per kind (the enqueue of a
 * key already waiting or running is a no-op), and each run schedules the next (worker.ts).
 */
export async function schedulePeriodicJobs(db: Db, registry: JobRegistry): Promise<void> {
  for (const [kind, def] of Object.entries(registry)) {
    if (def.every) await insertJob(db, kind, {}, { runAt: clock.now(), dedupeKey: periodicKey(kind) });
  }
}
