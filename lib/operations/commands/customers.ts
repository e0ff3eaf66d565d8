/**
 * Commands on a customer and their beneficiaries an operator asks for: a customer's status, the
 * partner relationship, a risk flag cleared, a PEP approved, a beneficiary's screening decided, a
 * KYC session's review decided.
 */
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "@/db";
import { subscriptions } from "@/db/schema";
import { transitionBeneficiary } from "@/lib/payments";
import { clearRiskFlag, approvePep, currentRating, newOverride, OVERRIDE_COMMAND, overrideProposer, RATINGS, recomputeRating } from "@/lib/compliance";
import { changeCustomer, lockCustomer, OPERATOR_STATUSES, decideKycReview, KYC_REVIEW_DECISIONS, type KycReviewDecision } from "@/lib/identity";
import { DomainError, notFound } from "@/lib/platform/errors";
import { setSubscriptionStatus } from "@/lib/partners";
import { command } from "./command";

/** The customer of a partner subscription (the console names customers by their subscription). */
async function customerIdOf(tx: Tx, subscriptionId: string): Promise<string> {
  const [sub] = await tx.select({ customerId: subscriptions.customerId }).from(subscriptions).where(eq(subscriptions.id, subscriptionId));
  if (!sub) throw notFound("customer");
  return sub.customerId;
}

/** A customer's status set by an admin (the status table's operator.setStatus row); emits customer.status.changed. */
export const setCustomerStatus = command({
  name: "customer.setStatus",
  role: "admin",
  input: z.object({
    subscriptionId: z.string().min(1),
    status: z.enum(OPERATOR_STATUSES),
    remediation: z.enum(["", "complete_kyc", "submit_profile_attributes", "contact_support"]).optional(),
    hint: z.string().trim().max(300).optional(),
  }),
  run: async ({ tx, now }, p) => {
    const before = await lockCustomer(tx, await customerIdOf(tx, p.subscriptionId));
    const after = await changeCustomer(
      tx,
      before,
      { triggers: ["operator.setStatus"], target: p.status, remediationHint: p.remediation || undefined, statusOperationalHint: p.hint || null },
      now,
    );
    return {
      targetType: "customer",
      targetId: before.id,
      before: { status: before.status },
      after: { status: after.status, remediationHint: after.remediationHint },
      notice: `Customer is now ${after.status}.`,
    };
  },
});

/** The partner-customer relationship: active, suspended (spended) or closed. */
export const setRelationship = command({
  name: "subscription.setStatus",
  role: "admin",
  input: z.object({ subscriptionId: z.string().min(1), status: z.enum(["active", "spended", "closed"]) }),
  run: async ({ tx, now }, p) => {
    const change = await setSubscriptionStatus(tx, p.subscriptionId, p.status, now);
    return {
      targetType: "subscription",
      targetId: p.subscriptionId,
      before: { status: change.before },
      after: { status: change.after },
      notice: `Relationship is now ${p.status}.`,
    };
  },
});

/** A compliance risk flag cleared: it stays on the record as history (who set it, who cleared it, when, why). */
export const clearCustomerRiskFlag = command({
  name: "customer.riskFlag.clear",
  role: "reviewer",
  input: z.object({ subscriptionId: z.string().min(1), flagId: z.string().min(1) }),
  run: async ({ tx, operator, reason, now }, p) => {
    const customerId = await customerIdOf(tx, p.subscriptionId);
    const cleared = await clearRiskFlag(tx, { customerId, flagId: p.flagId, reason: reason ?? "", operator, now });
    return {
      targetType: "customer",
      targetId: customerId,
      before: { flagId: cleared.id, flag: cleared.flag, setBy: cleared.setByEmail, setAt: cleared.createdAt.toISOString() },
      after: { flagId: cleared.id, clearedAt: now.toISOString() },
      notice: `Risk flag ${cleared.flag} cleared.`,
    };
  },
});

/**
 * An admin approves the relationship with a PEP customer (after their ENHANCED KYC), with a reason:
 * their transfers may then be approved out of review (lib/compliance/cases/pep.ts).
 */
export const approvePepCustomer = command({
  name: "customer.pep.approve",
  role: "admin",
  input: z.object({ subscriptionId: z.string().min(1) }),
  run: async ({ tx, operator, reason, now }, p) => {
    const customerId = await customerIdOf(tx, p.subscriptionId);
    const { before, after } = await approvePep(tx, { customerId, reason: reason ?? "", operator, now });
    return {
      targetType: "customer",
      targetId: customerId,
      before: { flagId: before.id, flag: "PEP", source: before.source, approvedAt: null },
      after: { flagId: after.id, approvedAt: now.toISOString(), approvedBy: operator.email },
      notice: "PEP approved: the customer's transfers may be approved out of review.",
    };
  },
});

/** A beneficiary's screening decided: VALID, MONITORED or BLOCKED (the only way out of BLOCKED). */
export const decideBeneficiary = command({
  name: "beneficiary.decide",
  role: "reviewer",
  // `expected`: the state the operator saw; if someone decided meanwhile, this decision is stale.
  input: z.object({ beneficiaryId: z.string().min(1), decision: z.enum(["VALID", "MONITORED", "BLOCKED"]), expected: z.string() }),
  locks: (p) => ({ beneficiary: p.beneficiaryId }),
  run: async ({ tx, now, locked: { beneficiary: row } }, p) => {
    if (row.state !== p.expected)
      throw new DomainError("beneficiary.stateInvalid", { message: "The beneficiary was decided meanwhile.", details: { currentState: row.state } });
    const after = await transitionBeneficiary(tx, row, "operator.decide", now, { target: p.decision });
    return {
      targetType: "beneficiary",
      targetId: row.id,
      before: { state: row.state },
      after: { state: after.state },
      notice: `Beneficiary ${row.firstName} ${row.lastName} is now ${after.state}.`,
    };
  },
});

/**
 * An analyst overrides a customer's risk rating, with a reason, and a second analyst approves it
 * (always: under dual control, and every instance waits). The override stands for the model's
 * overrideDays unless a newer floor factor (a PEP match, a report filed after it) replaces it; its
 * approval also counts as the review of the reports filed before it.
 */
export const overrideCustomerRating = command({
  name: OVERRIDE_COMMAND,
  role: "reviewer",
  input: z.object({ customerId: z.string().min(1), rating: z.enum(RATINGS) }),
  subject: (p) => ({ type: "customer", id: p.customerId }),
  needsSecondOperator: async () => true,
  describe: async (tx, p) => {
    const now = await currentRating(tx, p.customerId);
    if (!now) throw notFound("customer", "This customer has no rating yet.");
    return {
      summary: `Override customer ${p.customerId}'s risk rating ${now.rating} → ${p.rating}`,
      before: { rating: now.rating, computedRating: now.computedRating, score: now.score, reasons: now.reasons.map((r) => r.factor) },
      after: { rating: p.rating },
    };
  },
  run: async ({ tx, operator, reason, now }, p) => {
    if (!reason?.trim()) throw new DomainError("validation.fieldInvalid", { message: "An override needs a reason." });
    const proposedBy = await overrideProposer(tx, p.customerId);
    const override = newOverride({ rating: p.rating, reason: reason.trim(), proposedBy, approvedBy: operator.email }, now);
    const done = await recomputeRating(tx, p.customerId, now, "override", override);
    if (!done) throw notFound("customer");
    return {
      targetType: "customer",
      targetId: p.customerId,
      before: { rating: done.before?.rating ?? null, computedRating: done.before?.computedRating ?? null },
      after: { rating: done.after.rating, computedRating: done.after.computedRating, override: done.after.override },
      notice: `Risk rating overridden: ${done.after.rating} (computed ${done.after.computedRating}) until ${override.expiresAt.slice(0, 10)}.`,
    };
  },
});

/** The rating recomputed now (an analyst who wants the factors read again at once, e.g. after a profile correction). */
export const recomputeCustomerRating = command({
  name: "customer.rating.recompute",
  role: "reviewer",
  input: z.object({ customerId: z.string().min(1) }),
  run: async ({ tx, now }, p) => {
    const done = await recomputeRating(tx, p.customerId, now, "analyst");
    if (!done) throw notFound("customer");
    return {
      targetType: "customer",
      targetId: p.customerId,
      before: { rating: done.before?.rating ?? null },
      after: { rating: done.after.rating, score: done.after.score },
      notice: `Risk rating ${done.after.rating} (${done.after.score} points).`,
    };
  },
});

const KYC_DECIDED = { APPROVE: "approved", CORRECTION: "sent back for correction", REFUSE: "refused" } as const;

/**
 * A reviewer's decision on a submitted KYC session: approve, ask for a correction (the reason is
 * shown to the customer on the next capture) or refuse. Audited as kyc.review.<decision>.
 */
export const decideKycSession = command({
  name: "kyc.review.decide",
  role: "reviewer",
  input: z.object({
    kycSessionId: z.string().min(1),
    decision: z.enum(Object.keys(KYC_REVIEW_DECISIONS) as [KycReviewDecision, ...KycReviewDecision[]]),
    reason: z.string().trim().min(3).max(500),
  }),
  run: async ({ tx, now }, p) => {
    const done = await decideKycReview(tx, p, now);
    return {
      action: `kyc.review.${p.decision.toLowerCase()}`,
      targetType: "kycSession",
      targetId: done.kycSessionId,
      before: done.before,
      after: done.after,
      notice: `KYC session ${done.kycSessionId} ${KYC_DECIDED[p.decision]}: customer ${done.customerStatus}, KYC ${done.kycStatus}.`,
    };
  },
});
