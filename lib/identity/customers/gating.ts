import { eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { customers } from "@/db/schema";
import type { CustomerContext } from "@/lib/identity/auth/customer-context";
import { DomainError, type ErrorCode, type RemediationHint } from "@/lib/platform/errors";
import { MONEY_MOVING_STATUSES, type CustomerStatus } from "./status-machine";

/**
 * Customer-status gating per endpoint (spec 3.5), in one declarative table that every Core route
 * names through its contract. `moneyMovement` routes are also refused while the partner
 * relationship is suspended (subscription.spended); a closed relationship never gets this far
 * (lib/identity/auth/access-tokens.ts answers subscription.closed).
 */
export const GATES = {
  /** Profile, KYC: the onboarding routes a PENDING customer needs; only CLOSED is refused. */
  onboarding: { permitted: ["PENDING", "VALID", "MONITORED", "RESTRICTED", "BLOCKED"], moneyMovement: false },
  /** GET quotes/{id}: PENDING may fetch a quote already surfaced. */
  quoteRead: { permitted: ["PENDING", "VALID", "MONITORED", "RESTRICTED"], moneyMovement: false },
  /** POST quotes, POST quotes/{id}/accept. */
  quoteAccept: { permitted: MONEY_MOVING_STATUSES, moneyMovement: true },
  /** POST transfers/{id}/submit and confirm: VALID only. */
  transferCommit: { permitted: ["VALID"], moneyMovement: true },
  /** GET transfers, GET transfers/{id}. */
  transferRead: { permitted: ["VALID", "MONITORED", "RESTRICTED", "BLOCKED"], moneyMovement: false },
  /** POST transfers/{id}/cancel: never blocked by a partner suspension (spec 3.5). */
  transferCancel: { permitted: ["VALID", "MONITORED", "RESTRICTED", "BLOCKED"], moneyMovement: false },
  /** GET events: a partner catching up needs them whatever the customer's status (customer status changes included). */
  eventRead: { permitted: ["PENDING", "VALID", "MONITORED", "RESTRICTED", "BLOCKED"], moneyMovement: false },
  /** Beneficiary reads, creation and archive. */
  beneficiaryManage: { permitted: ["VALID", "MONITORED", "RESTRICTED", "BLOCKED"], moneyMovement: false },
} as const satisfies Record<string, { permitted: readonly CustomerStatus[]; moneyMovement: boolean }>;

export type GateName = keyof typeof GATES;

/** Why a status is refused: code and remediation hint (spec 3.5 and section 7). */
function refusalFor(gate: GateName, status: CustomerStatus, hasProfile: boolean): DomainError {
  const refuse = (code: ErrorCode, remediation: RemediationHint, message: string) =>
    new DomainError(code, { message, remediation, details: { currentStatus: status } });
  switch (status) {
    case "PENDING":
      return hasProfile
        ? refuse("customer.statusInsufficient", "complete_kyc", "Complete identity verification (KYC) first.")
        : refuse("customer.statusInsufficient", "submit_profile_attributes", "Submit the customer profile first.");
    case "RESTRICTED":
      return refuse("customer.statusBlocking", "complete_kyc", "The customer must complete the requested remediation first.");
    case "BLOCKED":
    case "CLOSED":
      return refuse("customer.statusBlocking", "contact_support", "The customer cannot do this; contact support.");
    default:
      // VALID or MONITORED refused by a stricter gate (submit and confirm are VALID only).
      return refuse("customer.statusInsufficient", "contact_support", `Not available while the customer is ${status} (${gate}).`);
  }
}

export interface GatedCustomer {
  id: string;
  status: CustomerStatus;
  kycStatus: string;
  hasProfile: boolean;
}

/**
 * Checks the gate for the calling customer and returns its status row. The pipeline passes the
 * row it already read with the token (lib/identity/auth/authenticate.ts); without it, it is read here.
 */
export async function enforceGate(db: Executor, gate: GateName, who: CustomerContext, preloaded?: GatedCustomer): Promise<GatedCustomer> {
  const row = preloaded ?? (await gateRowOf(db, who.customerId));
  if (!row) throw new DomainError("auth.tokenInvalid", { message: "The access token is not valid." });
  const status = row.status;
  const rule = GATES[gate];
  if (rule.moneyMovement && who.subscriptionStatus === "spended") {
    throw new DomainError("subscription.spended", {
      message: "The customer's relationship with this partner is suspended: money movement is paused.",
      remediation: "contact_support",
    });
  }
  if (!(rule.permitted as readonly string[]).includes(status)) throw refusalFor(gate, status, row.hasProfile);
  return row;
}

async function gateRowOf(db: Executor, customerId: string): Promise<GatedCustomer | undefined> {
  const [row] = await db
    .select({ id: customers.id, status: customers.status, kycStatus: customers.kycStatus, profile: customers.profile })
    .from(customers)
    .where(eq(customers.id, customerId));
  return row && { id: row.id, status: row.status, kycStatus: row.kycStatus, hasProfile: row.profile !== null };
}
