import type { Db } from "@/db";
import { config } from "@/lib/platform/config";
import { logger } from "@/lib/platform/log";
import type { JobRegistry } from "./define";
import { workerSettings, type WorkerSettings } from "./lanes";
import { schedulePeriodicJobs } from "./periodic";
import { JobPool } from "./pool";
import { listenForJobs } from "./notify";
import { wakeSignal } from "./wake";

const KEY = Symbol.for("remit.jobs.loop");
type G = typeof globalThis & { [KEY]?: { stop: () => Promise<void> } };

/**
 * The worker loop: schedules the periodic jobs, then keeps the pool's lanes filled with due jobs,
 * looking again when a job ends, a request wakes it, or the poll interval passes. One loop per
 * process (kept on globalThis), whether in the web server or `npm run worker`; the process hands
 * it the registry (lib/operations/runtime/job-registry.ts).
 */
export function startWorkerLoop(getDb: () => Promise<Db>, registry: JobRegistry, settings: WorkerSettings = workerSettings()): { stop: () => Promise<void> } {
  const g = globalThis as G;
  if (g[KEY]) return g[KEY];
  let running = true;
  let wake: (() => void) | undefined;
  // What the next pass claims: in every lane after a wake-up or a poll (new jobs may be due in
  // any), only where due jobs were left behind after a job ended (pool.refill()). Set while the
  // loop is busy (not sleeping), they are kept, so nothing waits a whole poll.
  let everyLane = true;
  let freed = false;
  const onWake = () => {
    everyLane = true;
    wake?.();
  };
  const onFreed = () => {
    freed = true;
    wake?.();
  };
  wakeSignal().on("wake", onWake);
  let unlisten: (() => Promise<void>) | undefined;
  const done = (async () => {
    const db = await getDb();
    unlisten = await listenForJobs(onWake).catch(() => undefined);
    const pool = new JobPool(db, registry, settings, onFreed);
    await schedulePeriodicJobs(db, registry).catch((err) => logger().error({ err }, "scheduling periodic jobs failed"));
    while (running) {
      const all = everyLane;
      everyLane = freed = false;
      try {
        await (all ? pool.fill() : pool.refill());
      } catch (err) {
        logger().error({ err }, "worker loop error");
      }
      if (!running) break;
      if (everyLane || freed) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          everyLane = true;
          resolve();
        }, config().WORKER_POLL_MS);
        // Woken (a commit wrote a job due now, a job ended): claim after the batch wait, with
        // whatever else came due meanwhile; a wake during that wait changes nothing.
        wake = () => {
          clearTimeout(timer);
          wake = () => {};
          const batchMs = running ? (settings.wakeBatchMs ?? 0) : 0;
          if (batchMs > 0) setTimeout(resolve, batchMs);
          else resolve();
        };
      });
      wake = undefined;
    }
    await pool.drain();
    await unlisten?.();
  })();
  g[KEY] = {
    stop: async () => {
      running = false;
      wake?.();
      wakeSignal().off("wake", onWake);
      await done;
      delete g[KEY];
    },
  };
  return g[KEY];
}
