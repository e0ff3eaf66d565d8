import { eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { customers, subscriptions } from "@/db/schema";

/**
 * What the partner app should show next after login (NextStep, spec 2.9). A BLOCKED or CLOSED
 * customer is never sent to KYC (POST /kyc-sessions refuses them with customer.statusBlocking),
 * whatever its kycStatus: a sanctions hit blocks a customer whose KYC has not started.
 */
export function nextStepForCustomer(c: { profile: unknown; kycStatus: string; status: string }): string {
  if (c.status === "BLOCKED" || c.status === "CLOSED") return "CONTINUE";
  if (!c.profile) return "COMPLETE_PROFILE";
  if (c.kycStatus === "NOT_STARTED" || c.kycStatus === "IN_PROGRESS" || c.kycStatus === "REMEDIATION_REQUIRED") return "START_KYC";
  return "CONTINUE";
}

export async function nextStepForSubscription(db: Executor, subscriptionId: string): Promise<string> {
  const [row] = await db
    .select({ profile: customers.profile, kycStatus: customers.kycStatus, status: customers.status })
    .from(subscriptions)
    .innerJoin(customers, eq(customers.id, subscriptions.customerId))
    .where(eq(subscriptions.id, subscriptionId));
  return row ? nextStepForCustomer(row) : "COMPLETE_PROFILE";
}
