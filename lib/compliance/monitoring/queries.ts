import { and, asc, eq, inArray, ne } from "drizzle-orm";
import type { Db, Executor } from "@/db";
import { monitoringEvaluations } from "@/db/schema";

/** A transfer's monitoring evaluations (live, and any shadow-run set's), for its console page. */
export async function evaluationsOf(db: Db, transferId: string) {
  return db
    .select()
    .from(monitoringEvaluations)
    .where(eq(monitoringEvaluations.transferId, transferId))
    .orderBy(asc(monitoringEvaluations.createdAt), asc(monitoringEvaluations.run));
}

/**
 * Why monitoring held each of these transfers, for the console's review queue: the typologies of
 * its live evaluation in enforce that reached review or block ("monitoring: structuring (review)").
 */
export async function monitoringReasons(db: Executor, transferIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (transferIds.length === 0) return out;
  const rows = await db
    .select({ transferId: monitoringEvaluations.transferId, typologies: monitoringEvaluations.typologies })
    .from(monitoringEvaluations)
    .where(
      and(
        inArray(monitoringEvaluations.transferId, [...transferIds]),
        eq(monitoringEvaluations.run, "live"),
        eq(monitoringEvaluations.mode, "enforce"),
        ne(monitoringEvaluations.outcome, "pass"),
      ),
    );
  for (const r of rows) {
    const reasons = r.typologies.filter((t) => t.outcome !== "pass").map((t) => `monitoring: ${t.typology} (${t.outcome})`);
    out.set(r.transferId, [...(out.get(r.transferId) ?? []), ...reasons]);
  }
  return out;
}
