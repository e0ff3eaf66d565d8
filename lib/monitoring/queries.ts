import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { monitoringEvaluations } from "@/db/schema";

/** A transfer's monitoring evaluations (live, and any shadow-run set's), for its console page. */
export async function evaluationsOf(db: Db, transferId: string) {
  return db
    .select()
    .from(monitoringEvaluations)
    .where(eq(monitoringEvaluations.transferId, transferId))
    .orderBy(asc(monitoringEvaluations.createdAt), asc(monitoringEvaluations.run));
}
