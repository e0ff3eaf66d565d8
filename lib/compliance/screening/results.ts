import { and, desc, eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { newId } from "@/db/ids";
import { screeningResults } from "@/db/schema";
import type { ScreeningOutcome } from "./provider";

/** "customer-pep": a customer's PEP screening (lib/compliance/screening/customer-pep-screen-job.ts), kept apart from their sanctions screening. */
export type ScreeningSubjectType = "customer" | "beneficiary" | "customer-pep";

/** Stores one screening and its evidence with the subject (console only, never the partner API). */
export async function recordScreening(tx: Executor, subjectType: ScreeningSubjectType, subjectId: string, outcome: ScreeningOutcome, now: Date): Promise<void> {
  await tx.insert(screeningResults).values({
    id: newId("scr"),
    subjectType,
    subjectId,
    result: outcome.result,
    listVersions: outcome.listVersions,
    evidence: outcome.evidence,
    createdAt: now,
  });
}

/** The subject's latest screening, or undefined before the first. */
export async function latestScreening(db: Executor, subjectType: ScreeningSubjectType, subjectId: string) {
  const [row] = await db
    .select()
    .from(screeningResults)
    .where(and(eq(screeningResults.subjectType, subjectType), eq(screeningResults.subjectId, subjectId)))
    .orderBy(desc(screeningResults.createdAt))
    .limit(1);
  return row;
}
