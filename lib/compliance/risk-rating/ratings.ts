/**
 * A customer's rating recomputed and stored: the row as it stands (one per customer) and, when
 * the rating or its reasons change, a history row. Called by the rating job (./rate-job.ts) after
 * each change the rating reads, and by the override command (lib/operations/commands/risk-rating.ts), which
 * sets the override and recomputes in its approver's transaction.
 */
import { and, eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { newId } from "@/db/ids";
import { customerRiskRatingHistory, customerRiskRatings, proposals } from "@/db/schema";
import { readEvidence } from "./evidence";
import { rate, ratingModel, type Rating, type RatingOverride } from "./model";

export type RatingRow = typeof customerRiskRatings.$inferSelect;

async function lockRating(tx: Tx, customerId: string): Promise<RatingRow | undefined> {
  const [row] = await tx.select().from(customerRiskRatings).where(eq(customerRiskRatings.customerId, customerId)).for("update");
  return row;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Recomputes the customer's rating as of `now` and stores it (with a history row when it changed).
 * `override`: a newly approved override, kept (and the customer counted reviewed) from now.
 * Undefined for an unknown customer.
 */
export async function recomputeRating(
  tx: Tx,
  customerId: string,
  now: Date,
  cause: string,
  override?: RatingOverride,
): Promise<{ before: RatingRow | undefined; after: RatingRow } | undefined> {
  const m = ratingModel();
  let before = await lockRating(tx, customerId);
  const evidence = await readEvidence(tx, customerId, m, now);
  if (!evidence) return undefined;
  const reviewedAt = override ? now : (before?.reviewedAt ?? null);
  const rated = rate(evidence, m, { now, override: override ?? before?.override ?? null, reviewedAt });
  const values = {
    rating: rated.rating,
    computedRating: rated.computed,
    score: rated.score,
    reasons: rated.reasons,
    override: rated.override,
    reviewedAt,
    computedAt: now,
  };
  if (!before) {
    // Two first ratings racing: the second finds the first's row and updates it.
    const [inserted] = await tx
      .insert(customerRiskRatings)
      .values({ customerId, ...values, createdAt: now })
      .onConflictDoNothing()
      .returning();
    if (!inserted) before = await lockRating(tx, customerId);
    else {
      await history(tx, undefined, inserted, cause, now);
      return { before: undefined, after: inserted };
    }
  }
  const [after] = await tx.update(customerRiskRatings).set(values).where(eq(customerRiskRatings.customerId, customerId)).returning();
  const changed =
    before!.rating !== after.rating ||
    before!.computedRating !== after.computedRating ||
    !same(before!.reasons, after.reasons) ||
    !same(before!.override, after.override);
  if (changed || override) await history(tx, before, after, cause, now);
  return { before, after };
}

async function history(tx: Tx, before: RatingRow | undefined, after: RatingRow, cause: string, now: Date) {
  await tx.insert(customerRiskRatingHistory).values({
    id: newId("rrh"),
    customerId: after.customerId,
    previousRating: before?.rating ?? null,
    rating: after.rating,
    computedRating: after.computedRating,
    score: after.score,
    reasons: after.reasons,
    override: after.override,
    cause,
    createdAt: now,
  });
}

/** The override an approver makes stand from `now`, for the model's overrideDays. */
export function newOverride(input: { rating: Rating; reason: string; proposedBy: string | null; approvedBy: string }, now: Date): RatingOverride {
  return {
    ...input,
    at: now.toISOString(),
    expiresAt: new Date(now.getTime() + ratingModel().overrideDays * 86_400_000).toISOString(),
  };
}

/** Who proposed the override now being approved (its proposal still waits while the approver runs it). */
export async function overrideProposer(tx: Tx, customerId: string): Promise<string | null> {
  const [row] = await tx
    .select({ email: proposals.proposedByEmail })
    .from(proposals)
    .where(
      and(eq(proposals.action, OVERRIDE_COMMAND), eq(proposals.subjectType, "customer"), eq(proposals.subjectId, customerId), eq(proposals.state, "PROPOSED")),
    );
  return row?.email ?? null;
}

/** The name of the override's command (lib/operations/commands/customers.ts), as its proposals carry it. */
export const OVERRIDE_COMMAND = "customer.rating.override";

/** The customer's rating as it stands, unlocked (a proposal's description). */
export async function currentRating(tx: Tx, customerId: string): Promise<RatingRow | undefined> {
  const [row] = await tx.select().from(customerRiskRatings).where(eq(customerRiskRatings.customerId, customerId));
  return row;
}
