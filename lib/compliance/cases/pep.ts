/**
 * A customer's PEP status (docs/decisions.md, "PEP screening"): a standing PEP risk flag
 * (`customer_risk_flags`, flag PEP, not cleared) is the customer being a politically exposed
 * person, set by PEP screening (source "pep-screening", with the list entries matched) or by an
 * analyst from a case (source "analyst"). While the flag stands without an admin's approval, the
 * fast-check sends the customer's transfers to review and a reviewer cannot approve them; an admin
 * approves only once the customer's ENHANCED KYC was approved (verification tier 2). An analyst
 * who finds the match is another person clears the flag (customer.riskFlag.clear, with a reason);
 * the same list entries do not raise it again.
 *
 * Read it with `standingPepFlag(db, customerId)`, or in SQL: a row of customer_risk_flags with
 * flag = 'PEP' and cleared_at is null (the index customer_risk_flags_standing serves it).
 * Console only: nothing here reaches the partner API, webhooks or webviews (no tipping off).
 */
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Executor, Tx } from "@/db";
import { newId } from "@/db/ids";
import { customerRiskFlags, customers, type ScreeningEvidence } from "@/db/schema";
import { DomainError, notFound } from "@/lib/platform/errors";
import { raiseAlert } from "./cases";

export type PepFlagRow = typeof customerRiskFlags.$inferSelect;

/** The author of flags PEP screening sets (no operator acts there). */
export const PEP_SCREENING_ACTOR = "system:pep-screening";

/** The review reason the fast-check and the review queue give while the approval waits (console only). */
export const PEP_REVIEW_REASON = "PEP: ENHANCED KYC and an admin's approval needed";

const standing = (customerId: string) =>
  and(eq(customerRiskFlags.customerId, customerId), eq(customerRiskFlags.flag, "PEP"), isNull(customerRiskFlags.clearedAt));

/** The customer's standing PEP flag (with its source, evidence and approval), or undefined: the customer's PEP status. */
export async function standingPepFlag(db: Executor, customerId: string): Promise<PepFlagRow | undefined> {
  const [row] = await db.select().from(customerRiskFlags).where(standing(customerId)).limit(1);
  return row;
}

/** Of these customers, those whose standing PEP flag waits for an admin's approval (the review queue's reason). */
export async function pepApprovalPendingOf(db: Executor, customerIds: string[]): Promise<Set<string>> {
  if (customerIds.length === 0) return new Set();
  const rows = await db
    .select({ customerId: customerRiskFlags.customerId })
    .from(customerRiskFlags)
    .where(
      and(
        inArray(customerRiskFlags.customerId, [...new Set(customerIds)]),
        eq(customerRiskFlags.flag, "PEP"),
        isNull(customerRiskFlags.clearedAt),
        isNull(customerRiskFlags.approvedAt),
      ),
    );
  return new Set(rows.map((r) => r.customerId));
}

/**
 * Whether the customer (its id bound to the placeholder `placeholder`) has a PEP flag waiting for
 * an admin's approval, as 1 or 0: the fast-check reads it beside monitoring's aggregates.
 */
export const pepApprovalPendingSql = (placeholder: string) =>
  sql`(exists (select 1 from ${customerRiskFlags} where ${customerRiskFlags.customerId} = ${sql.placeholder(placeholder)} and ${customerRiskFlags.flag} = 'PEP' and ${customerRiskFlags.clearedAt} is null and ${customerRiskFlags.approvedAt} is null))::int`;

const entryKey = (e: Pick<ScreeningEvidence, "list" | "entryId">) => `${e.list}\u0000${e.entryId}`;

/**
 * PEP screening found the customer on a PEP list (`evidence`: the entries a verdict flagged, HIT
 * or CLOSE_MATCH alike: a possible PEP is one until an analyst says otherwise). Flags the customer
 * PEP with the evidence and raises a PEP_MATCH alert on the customer's case, unless a PEP flag
 * already stands, or every entry matched was already cleared by an analyst on an earlier flag.
 * The customer's status is not changed: a PEP is not blocked, and the partner learns nothing.
 */
export async function raisePepMatch(
  tx: Tx,
  input: { customerId: string; evidence: ScreeningEvidence[]; now: Date },
): Promise<{ raised: boolean; flag?: PepFlagRow; caseId?: string }> {
  if (input.evidence.length === 0) return { raised: false };
  const flags = await tx
    .select()
    .from(customerRiskFlags)
    .where(and(eq(customerRiskFlags.customerId, input.customerId), eq(customerRiskFlags.flag, "PEP")))
    .orderBy(desc(customerRiskFlags.createdAt));
  const current = flags.find((f) => !f.clearedAt);
  if (current) return { raised: false, flag: current };
  const cleared = new Set(flags.flatMap((f) => (f.evidence ?? []).map(entryKey)));
  if (input.evidence.every((e) => cleared.has(entryKey(e)))) return { raised: false };
  const top = input.evidence[0];
  const raised = await raiseAlert(tx, {
    customerId: input.customerId,
    kind: "PEP_MATCH",
    summary: `${top.listName ?? top.list}: ${top.entryName} (${top.result}, score ${top.score}${top.matchedAlias ? `, alias ${top.matchedName}` : ""}); ENHANCED KYC and an admin's approval before the next transfer`,
    now: input.now,
  });
  const [flag] = await tx
    .insert(customerRiskFlags)
    .values({
      id: newId("rflag"),
      customerId: input.customerId,
      flag: "PEP",
      caseId: raised.case?.id ?? null,
      setByEmail: PEP_SCREENING_ACTOR,
      source: "pep-screening",
      evidence: input.evidence,
      createdAt: input.now,
    })
    // The customer's row is locked by the screening job: a concurrent flag can only be an analyst's.
    .onConflictDoNothing()
    .returning();
  return { raised: true, flag, caseId: raised.case?.id };
}

/**
 * An admin approves the business relationship with a PEP customer: only once their ENHANCED KYC
 * (source of funds) was approved, tier 2 (409 pep.enhancedKycRequired before). The customer's
 * transfers then leave review the usual way (a reviewer approves them).
 */
export async function approvePep(
  tx: Tx,
  input: { customerId: string; reason: string; operator: { id: string; email: string }; now: Date },
): Promise<{ before: PepFlagRow; after: PepFlagRow }> {
  const [flag] = await tx.select().from(customerRiskFlags).where(standing(input.customerId)).for("update");
  if (!flag) throw notFound("riskFlag", "This customer has no standing PEP flag.");
  if (flag.approvedAt) {
    throw new DomainError("riskFlag.stateInvalid", {
      message: `This PEP flag was already approved by ${flag.approvedByEmail}.`,
      details: { currentState: "APPROVED" },
    });
  }
  const [customer] = await tx.select({ tier: customers.verificationTier }).from(customers).where(eq(customers.id, input.customerId));
  if ((customer?.tier ?? 1) < 2) {
    throw new DomainError("pep.enhancedKycRequired", {
      message: "The customer's ENHANCED KYC (source of funds) must be approved before a PEP is approved.",
      details: { tier: customer?.tier ?? 1 },
    });
  }
  const [after] = await tx
    .update(customerRiskFlags)
    .set({ approvedAt: input.now, approvedById: input.operator.id, approvedByEmail: input.operator.email, approvalReason: input.reason })
    .where(eq(customerRiskFlags.id, flag.id))
    .returning();
  return { before: flag, after };
}

/** A transfer of a PEP whose approval waits is not approved out of review (409 pep.approvalPending). */
export async function refuseWhilePepApprovalPending(tx: Executor, customerId: string): Promise<void> {
  const flag = await standingPepFlag(tx, customerId);
  if (flag && !flag.approvedAt) {
    throw new DomainError("pep.approvalPending", {
      message: "The customer is a PEP: their transfers wait for ENHANCED KYC and an admin's approval on the customer's page.",
      details: { flagId: flag.id },
    });
  }
}
