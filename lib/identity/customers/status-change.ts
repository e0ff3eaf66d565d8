import { eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { customers, subscriptions } from "@/db/schema";
import type { RemediationHint } from "@/lib/platform/errors";
import type { KycStatus } from "@/lib/identity/kyc/statuses";
import type { VerificationTier } from "@/db/schema/customers";
import { effectsOf } from "@/lib/platform/unit-of-work";
import { requestRating } from "./rating-request";
import { customerStatusMachine, type CustomerStatus, type CustomerTrigger } from "./status-machine";

export type CustomerRow = typeof customers.$inferSelect;

export async function lockCustomer(tx: Tx, customerId: string): Promise<CustomerRow> {
  // NO KEY UPDATE: a customer's id never changes, and foreign key checks of rows naming the
  // customer (a transfer's insert) must not wait on it (lib/payments/transfers/confirm.ts says why).
  const [row] = await tx.select().from(customers).where(eq(customers.id, customerId)).for("no key update");
  if (!row) throw new Error(`customer ${customerId} not found`);
  return row;
}

export interface CustomerChange {
  /** Applied in order, e.g. ["kyc.approved", "screening.closeMatch"]: one event for the net change. */
  triggers?: CustomerTrigger[];
  /** For operator.setStatus. */
  target?: CustomerStatus;
  kycStatus?: KycStatus;
  remediationHint?: RemediationHint | null;
  statusOperationalHint?: string | null;
  /** Verification tier: raised when an ENHANCED KYC session is approved. */
  tier?: VerificationTier;
}

/** What the remediation hint should say for a status (spec 7 values). */
function defaultRemediation(status: CustomerStatus, kycStatus: KycStatus): RemediationHint | null {
  if (status === "BLOCKED" || status === "CLOSED") return "contact_support";
  if (status === "RESTRICTED" || kycStatus === "REMEDIATION_REQUIRED") return "complete_kyc";
  if (status === "PENDING") return kycStatus === "NOT_STARTED" ? "submit_profile_attributes" : "complete_kyc";
  return null;
}

/**
 * The one way a customer's status, KYC status or verification tier changes: the transition table decides, the row
 * (already locked by the caller) is updated, and customer.status.changed is emitted to each of the
 * customer's subscriptions in the same transaction, once per actual change.
 */
export async function changeCustomer(tx: Tx, customer: CustomerRow, change: CustomerChange, now: Date): Promise<CustomerRow> {
  let status = customer.status;
  for (const trigger of change.triggers ?? []) status = customerStatusMachine.next(status, trigger, { target: change.target }).to;
  const kycStatus = change.kycStatus ?? customer.kycStatus;
  const tier = change.tier ?? customer.verificationTier;
  const changed = status !== customer.status || kycStatus !== customer.kycStatus || tier !== customer.verificationTier;
  if (!changed && change.statusOperationalHint === undefined) return customer;
  const remediationHint = change.remediationHint !== undefined ? change.remediationHint : defaultRemediation(status, kycStatus);
  const [updated] = await tx
    .update(customers)
    .set({
      status,
      kycStatus,
      verificationTier: tier,
      remediationHint,
      statusOperationalHint: change.statusOperationalHint !== undefined ? change.statusOperationalHint : customer.statusOperationalHint,
      updatedAt: now,
    })
    .where(eq(customers.id, customer.id))
    .returning();
  // KYC and the tier are factors of the customer's risk rating.
  if (kycStatus !== customer.kycStatus || tier !== customer.verificationTier) await requestRating(tx, customer.id, now, "customer.kyc");
  if (changed) {
    const subs = await tx.select({ id: subscriptions.id }).from(subscriptions).where(eq(subscriptions.customerId, customer.id));
    for (const sub of subs) {
      await effectsOf(tx).events.emit({
        subscriptionId: sub.id,
        eventType: "customer.status.changed",
        data: {
          status,
          kycStatus,
          previousStatus: customer.status,
          previousKycStatus: customer.kycStatus,
          remediationHint,
          tier,
          previousTier: customer.verificationTier,
        },
        now,
      });
    }
  }
  return updated;
}
