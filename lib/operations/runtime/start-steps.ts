import type { Db } from "@/db";
import { refuseSandboxData, seedSandbox } from "@/lib/partners";
import { installDefaultPack, scheduleRefresh } from "@/lib/compliance";
import { loadSigningKeys } from "@/lib/payments";
import { config } from "@/lib/platform/config";
import { setStartSteps, type StartStep } from "@/lib/platform/ready";
import { seedOperator } from "../operators/records";

/**
 * What a process does on its database once, before anything uses it (`ready()` runs these in
 * order): each context's own start, listed here as the job registry lists the jobs, so that
 * platform names no context.
 */
export const startSteps: readonly StartStep[] = [
  // Sandbox mode seeds its demo partner; production refuses a database that holds one.
  async function sandboxData(db: Db) {
    if (config().sandbox) await seedSandbox(db);
    else await refuseSandboxData(db);
  },
  async function signingKeys(db: Db) {
    await loadSigningKeys(db);
  },
  seedOperator,
  // A fresh database gets the shipped monitoring pack as its live rule set.
  installDefaultPack,
  // Loads the sanctions list as a job (a fresh database: the shipped copy), not before start.
  async function sanctionsRefresh(db: Db) {
    await scheduleRefresh(db);
  },
];

/** Called by every process entry point (the web server's instrumentation, the worker, the CLI scripts, the tests' database) before the first `ready()`. */
export function installStartSteps(): void {
  setStartSteps(startSteps);
}
