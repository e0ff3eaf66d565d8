import type { Db } from "@/db";
import { config } from "@/lib/config";
import { logger } from "@/lib/log";
import type { JobRegistry } from "./define";
import { wakeSignal } from "./wake";
import { runDueJobs } from "./worker";

const KEY = Symbol.for("remit.jobs.loop");
type G = typeof globalThis & { [KEY]?: { stop: () => Promise<void> } };

/**
 * The worker loop: runs due jobs of the registry's kinds, then sleeps until the poll interval
 * passes or a request wakes it. One loop per process (kept on globalThis), whether in the web
 * server or `npm run worker`; the process hands it the registry (lib/jobs/registry.ts).
 */
export function startWorkerLoop(getDb: () => Promise<Db>, registry: JobRegistry): { stop: () => Promise<void> } {
  const g = globalThis as G;
  if (g[KEY]) return g[KEY];
  let running = true;
  let wake: (() => void) | undefined;
  const onWake = () => wake?.();
  wakeSignal().on("wake", onWake);
  const done = (async () => {
    const db = await getDb();
    while (running) {
      try {
        while (running && (await runDueJobs(db, registry)) > 0);
      } catch (err) {
        logger().error({ err }, "worker loop error");
      }
      if (!running) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, config().WORKER_POLL_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
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
