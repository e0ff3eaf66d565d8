import { getDb, type Db } from "@/db";

/**
 * One thing a process does on its database before anything uses it: the contexts' own (sandbox
 * seed, signing keys, the first operator, the monitoring pack, the sanctions refresh), listed by
 * lib/operations/runtime/start-steps.ts, so that platform names no context.
 */
export type StartStep = (db: Db) => Promise<void>;

const KEY = Symbol.for("remit.ready");
// On globalThis, like the prepared database: Next.js loads this module once per bundle, and the
// instrumentation that installs the steps is not in the route handlers' bundle.
const STEPS = Symbol.for("remit.ready.steps");
type G = typeof globalThis & { [KEY]?: Promise<Db>; [STEPS]?: readonly StartStep[] };

/** Installs the steps `ready()` runs; a process entry point calls it (through installStartSteps) before the first `ready()`. */
export function setStartSteps(steps: readonly StartStep[]): void {
  (globalThis as G)[STEPS] = steps;
}

/** The migrated database, prepared once per process by the installed start steps. */
export function ready(): Promise<Db> {
  const g = globalThis as G;
  if (!g[KEY]) {
    const steps = g[STEPS];
    // A process that forgot its steps would serve a database never seeded: refused at once instead.
    if (!steps)
      return Promise.reject(
        new Error("ready() before the start steps were installed: the entry point calls installStartSteps() (lib/operations/runtime/start-steps.ts)"),
      );
    g[KEY] = (async () => {
      const db = await getDb();
      for (const step of steps) await step(db);
      return db;
    })();
    g[KEY].catch(() => delete g[KEY]);
  }
  return g[KEY];
}
