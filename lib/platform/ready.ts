import { getDb, type Db } from "@/db";
import { config } from "@/lib/platform/config";
import { refuseSandboxData, seedSandbox } from "@/lib/partners/sandbox-seed";
import { installDefaultPack } from "@/lib/compliance/monitoring/rule-sets";
import { seedOperator } from "@/lib/operations/operators/records";
import { loadSigningKeys } from "@/lib/payments/quotes/service-keys";
import { scheduleRefresh } from "@/lib/compliance/screening/refresh-job";

const KEY = Symbol.for("remit.ready");
type G = typeof globalThis & { [KEY]?: Promise<Db> };

/** The migrated database, with sandbox data seeded in sandbox mode; prepared once per process. */
export function ready(): Promise<Db> {
  const g = globalThis as G;
  if (!g[KEY]) {
    g[KEY] = (async () => {
      const db = await getDb();
      if (config().sandbox) await seedSandbox(db);
      else await refuseSandboxData(db);
      await loadSigningKeys(db);
      await seedOperator(db);
      // A fresh database gets the shipped monitoring pack as its live rule set.
      await installDefaultPack(db);
      // Loads the sanctions list as a job (a fresh database: the shipped copy), not before start.
      await scheduleRefresh(db);
      return db;
    })();
    g[KEY].catch(() => delete g[KEY]);
  }
  return g[KEY];
}
