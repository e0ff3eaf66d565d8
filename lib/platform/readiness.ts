import { readFileSync } from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { rowsOf, type Executor } from "@/db";
import { referenceRateSets, sanctionsListVersions } from "@/db/schema";
import type { ResolvedProviders } from "@/lib/platform/providers/table";

/**
 * GET /readyz: whether this process can do its work. Each check is one small
 * query, so a load balancer may ask every few seconds: the database answers, every migration of
 * this build is applied (a node of an older build, or a database restored from before a migration,
 * is not ready), and the data quotes and screening need is there: a sanctions list version per
 * list (with the ofac provider; loaded by a job after a fresh start) and a stored ECB rate set
 * (with the ecb provider). A stale rate set still counts as loaded: quotes then answer 503 by
 * themselves, and the rest of the API (auth, status reads) keeps working.
 */
export type ReadinessCheck = "database" | "migrations" | "sanctionsLists" | "referenceRates";
export interface Readiness {
  ready: boolean;
  /** ok, failed, or not used (the provider in use needs no such data). */
  checks: Record<ReadinessCheck, "ok" | "failed" | "not used">;
}

let newestMigration: number | undefined;
/** The journal's last `when`: drizzle's migrator records it as created_at of the last applied migration. */
function newestMigrationOfThisBuild(): number {
  if (newestMigration === undefined) {
    const journal = JSON.parse(readFileSync(path.join(process.cwd(), "db", "migrations", "meta", "_journal.json"), "utf8")) as { entries: { when: number }[] };
    newestMigration = Math.max(...journal.entries.map((e) => e.when));
  }
  return newestMigration;
}

async function passes(check: () => Promise<boolean>): Promise<"ok" | "failed"> {
  try {
    return (await check()) ? "ok" : "failed";
  } catch {
    return "failed";
  }
}

/** `lists`: the sanctions lists screening needs (compliance's LISTS, passed by /readyz: the platform names no context). */
export async function readiness(
  db: Executor,
  providers: Pick<ResolvedProviders, "screening" | "referenceRates">,
  lists: readonly string[],
): Promise<Readiness> {
  const database = await passes(async () => rowsOf(await db.execute(sql`select 1 as one`)).length === 1);
  if (database === "failed") return { ready: false, checks: { database, migrations: "failed", sanctionsLists: "failed", referenceRates: "failed" } };
  const migrations = await passes(async () => {
    const [row] = rowsOf<{ newest: string | number | null }>(await db.execute(sql`select max(created_at) as newest from drizzle.__drizzle_migrations`));
    return Number(row?.newest ?? 0) >= newestMigrationOfThisBuild();
  });
  const sanctionsLists: Readiness["checks"]["sanctionsLists"] =
    providers.screening === "ofac"
      ? await passes(async () => {
          for (const list of lists) {
            const found = await db.select({ id: sanctionsListVersions.id }).from(sanctionsListVersions).where(eq(sanctionsListVersions.list, list)).limit(1);
            if (found.length === 0) return false;
          }
          return true;
        })
      : "not used";
  const referenceRates: Readiness["checks"]["referenceRates"] =
    providers.referenceRates === "ecb"
      ? await passes(
          async () =>
            (await db.select({ source: referenceRateSets.source }).from(referenceRateSets).where(eq(referenceRateSets.source, "ecb")).limit(1)).length === 1,
        )
      : "not used";
  const checks: Readiness["checks"] = { database, migrations, sanctionsLists, referenceRates };
  return { ready: Object.values(checks).every((v) => v !== "failed"), checks };
}
