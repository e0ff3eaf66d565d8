"use server";

import { eq } from "drizzle-orm";
import { z } from "zod";
import { subscriptions } from "@/db/schema";
import { clearRiskFlag } from "@/lib/cases/cases";
import { consoleAction } from "@/lib/console/action";
import { notFound } from "@/lib/errors";
import { changeCustomer, lockCustomer } from "@/lib/customers/status-change";
import { OPERATOR_STATUSES } from "@/lib/customers/status-machine";
import { recordAudit } from "@/lib/operators/audit";
import { setSubscriptionStatus } from "@/lib/partners/admin";

// Set a customer's status (the table's operator.setStatus row); emits customer.status.changed.
export const setCustomerStatus = consoleAction(
  "admin",
  z.object({
    subscriptionId: z.string().min(1),
    status: z.enum(OPERATOR_STATUSES),
    remediation: z.enum(["", "complete_kyc", "submit_profile_attributes", "contact_support"]).optional(),
    hint: z.string().trim().max(300).optional(),
    reason: z.string().trim().min(3).max(500),
  }),
  async ({ tx, input, operator, now }) => {
    const [sub] = await tx.select({ customerId: subscriptions.customerId }).from(subscriptions).where(eq(subscriptions.id, input.subscriptionId));
    if (!sub) throw notFound("customer"); // an error, not a success notice
    const before = await lockCustomer(tx, sub.customerId);
    const after = await changeCustomer(
      tx,
      before,
      { triggers: ["operator.setStatus"], target: input.status, remediationHint: input.remediation || undefined, statusOperationalHint: input.hint || null },
      now,
    );
    await recordAudit(
      tx,
      operator,
      {
        action: "customer.setStatus",
        targetType: "customer",
        targetId: before.id,
        before: { status: before.status },
        after: { status: after.status, remediationHint: after.remediationHint },
        reason: input.reason,
      },
      now,
    );
    return `Customer is now ${after.status}.`;
  },
);

// Set the partner-customer relationship: active, suspended (spended) or closed.
export const setRelationship = consoleAction(
  "admin",
  z.object({ subscriptionId: z.string().min(1), status: z.enum(["active", "spended", "closed"]), reason: z.string().trim().min(3).max(500) }),
  async ({ tx, input, operator, now }) => {
    const change = await setSubscriptionStatus(tx, input.subscriptionId, input.status, now);
    await recordAudit(
      tx,
      operator,
      {
        action: "subscription.setStatus",
        targetType: "subscription",
        targetId: input.subscriptionId,
        before: { status: change.before },
        after: { status: change.after },
        reason: input.reason,
      },
      now,
    );
    return `Relationship is now ${input.status}.`;
  },
);

// Clear a compliance risk flag (issue 22): reviewers (analysts) and admins, with a reason. The flag
// stays on the record as history (who set it, who cleared it, when, why) and in the audit log.
export const clearCustomerRiskFlag = consoleAction(
  "reviewer",
  z.object({ subscriptionId: z.string().min(1), flagId: z.string().min(1), reason: z.string().trim().min(3).max(500) }),
  async ({ tx, input, operator, now }) => {
    const [sub] = await tx.select({ customerId: subscriptions.customerId }).from(subscriptions).where(eq(subscriptions.id, input.subscriptionId));
    if (!sub) throw notFound("customer");
    const cleared = await clearRiskFlag(tx, { customerId: sub.customerId, flagId: input.flagId, reason: input.reason, operator, now });
    await recordAudit(
      tx,
      operator,
      {
        action: "customer.riskFlag.clear",
        targetType: "customer",
        targetId: sub.customerId,
        before: { flagId: cleared.id, flag: cleared.flag, setBy: cleared.setByEmail, setAt: cleared.createdAt.toISOString() },
        after: { flagId: cleared.id, clearedAt: now.toISOString() },
        reason: input.reason,
      },
      now,
    );
    return `Risk flag ${cleared.flag} cleared.`;
  },
);
