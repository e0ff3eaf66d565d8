import { and, asc, eq, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { Executor, Tx } from "@/db";
import { customers, kycPhotos, kycSessions, subscriptions } from "@/db/schema";
import { DomainError } from "@/lib/platform/errors";
import { completeKycSession, lockKycSession } from "./outcome";
import type { KycOutcome } from "./statuses";
import { effectiveState } from "./sessions";
import { kycSessionMachine } from "./session-state-machine";
import type { KycPhotoKind } from "./photo-kinds";

/**
 * The console's KYC review (KYC_DECISION_PROVIDER=operator): sessions whose capture was submitted
 * and not yet decided, and the operator's decision, which goes through completeKycSession like the
 * sandbox buttons (one path); the command kyc.review.decide (lib/operations/commands) audits it.
 */

export const KYC_REVIEW_PAGE_SIZE = 20;

export const KYC_REVIEW_DECISIONS = {
  APPROVE: "APPROVED",
  CORRECTION: "REMEDIATION_REQUIRED",
  REFUSE: "REJECTED",
} as const satisfies Record<string, KycOutcome>;
export type KycReviewDecision = keyof typeof KYC_REVIEW_DECISIONS;

// A session the machine is still verifying (or cleared) is not a person's yet: only its exceptions (REVIEW) are.
const waiting = and(
  isNotNull(kycSessions.submittedAt),
  eq(kycSessions.state, "IN_PROGRESS"),
  or(isNull(kycSessions.verification), sql`${kycSessions.verification}->>'status' = 'REVIEW'`),
);

export async function kycReviewQueue(db: Executor, page: number) {
  const rows = await db
    .select({
      session: kycSessions,
      profile: customers.profile,
      customerStatus: customers.status,
      kycStatus: customers.kycStatus,
      partnerId: subscriptions.partnerId,
      photoType: kycPhotos.contentType,
      photoSize: kycPhotos.size,
      photoKinds: sql<KycPhotoKind[]>`(select coalesce(array_agg(p.kind order by p.kind), '{}') from kyc_photos p where p.kyc_session_id = ${kycSessions.id})`,
    })
    .from(kycSessions)
    .innerJoin(customers, eq(customers.id, kycSessions.customerId))
    .innerJoin(subscriptions, eq(subscriptions.id, kycSessions.subscriptionId))
    .leftJoin(kycPhotos, and(eq(kycPhotos.kycSessionId, kycSessions.id), eq(kycPhotos.kind, "DOCUMENT")))
    .where(waiting)
    .orderBy(asc(kycSessions.submittedAt), asc(kycSessions.id))
    .limit(KYC_REVIEW_PAGE_SIZE + 1)
    .offset((page - 1) * KYC_REVIEW_PAGE_SIZE);
  return { hasMore: rows.length > KYC_REVIEW_PAGE_SIZE, items: rows.slice(0, KYC_REVIEW_PAGE_SIZE) };
}

export async function countKycReview(db: Executor): Promise<number> {
  return db.$count(kycSessions, waiting);
}

/** A picture of a session (the document photo unless another kind is asked), for a signed-in operator's browser only. */
export async function readKycPhoto(db: Executor, kycSessionId: string, kind: KycPhotoKind = "DOCUMENT") {
  const [photo] = await db
    .select()
    .from(kycPhotos)
    .where(and(eq(kycPhotos.kycSessionId, kycSessionId), eq(kycPhotos.kind, kind)));
  return photo ?? null;
}

/**
 * An operator's decision on a submitted session (the command kyc.review.decide runs it and audits
 * what it returns). A session someone else decided first (or that was never submitted) is refused
 * with "already decided" and nothing changes.
 */
export async function decideKycReview(tx: Tx, input: { kycSessionId: string; decision: KycReviewDecision; reason: string }, now: Date) {
  const session = await lockKycSession(tx, input.kycSessionId);
  if (!session) throw new DomainError("kycSession.notFound", { message: "No such KYC session." });
  const state = effectiveState(session, now);
  if (!session.submittedAt || !kycSessionMachine.can(state, "completed")) {
    throw new DomainError("kyc.sessionStateInvalid", {
      message: `Already decided by someone else (session ${state}${session.outcome ? `, ${session.outcome}` : ""}): nothing was changed.`,
      details: { currentState: state },
    });
  }
  const outcome = KYC_REVIEW_DECISIONS[input.decision];
  const standing = { status: customers.status, kycStatus: customers.kycStatus, tier: customers.verificationTier };
  const [before] = await tx.select(standing).from(customers).where(eq(customers.id, session.customerId));
  await tx.update(kycSessions).set({ decisionReason: input.reason }).where(eq(kycSessions.id, session.id));
  const result = await completeKycSession(tx, { session, outcome, now });
  const [after] = await tx.select(standing).from(customers).where(eq(customers.id, session.customerId));
  return {
    ...result,
    customerStatus: after.status,
    kycStatus: after.kycStatus,
    tier: after.tier,
    before: { sessionState: state, customerId: session.customerId, ...before },
    after: { sessionState: result.sessionState, outcome, ...after },
  };
}
