import { eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { newId } from "@/db/ids";
import { customerFlags, subscriptions } from "@/db/schema";
import type { BeneficiaryRow } from "./records";
import { beneficiaryMayMoveMoney, moneyMovementCheck } from "./state-machine";
import { DomainError } from "@/lib/platform/errors";

/**
 * Why a customer's console record carries a flag. Console only: the API never says.
 * - PAID_BLOCKED_BENEFICIARY: tried to quote, accept or submit to a BLOCKED beneficiary;
 * - PAID_CASED_BENEFICIARY: submitted a transfer to a beneficiary with an open screening case;
 * - PAID_WHILE_CUSTOMER_CASED: submitted a transfer while the customer has an open case of its own;
 * - BENEFICIARY_TRUE_MATCH: a beneficiary of theirs was confirmed as a listed person.
 */
export const CUSTOMER_FLAG_KINDS = ["PAID_BLOCKED_BENEFICIARY", "PAID_CASED_BENEFICIARY", "PAID_WHILE_CUSTOMER_CASED", "BENEFICIARY_TRUE_MATCH"] as const;
export type CustomerFlagKind = (typeof CUSTOMER_FLAG_KINDS)[number];

export const CUSTOMER_FLAG_LABELS: Record<CustomerFlagKind, string> = {
  PAID_BLOCKED_BENEFICIARY: "Tried to pay a BLOCKED beneficiary",
  PAID_CASED_BENEFICIARY: "Paid a beneficiary under a screening case",
  PAID_WHILE_CUSTOMER_CASED: "Submitted a transfer while the customer's own screening case was open",
  BENEFICIARY_TRUE_MATCH: "A beneficiary was confirmed as a listed person: review the customer",
};

/** Flags the customer once per kind and beneficiary (a repeat changes nothing). */
export async function flagCustomer(
  tx: Tx,
  input: { customerId: string; kind: CustomerFlagKind; beneficiaryId: string; caseId?: string | null; now: Date },
): Promise<void> {
  await tx
    .insert(customerFlags)
    .values({
      id: newId("flag"),
      customerId: input.customerId,
      kind: input.kind,
      beneficiaryId: input.beneficiaryId,
      caseId: input.caseId ?? null,
      createdAt: input.now,
    })
    .onConflictDoNothing();
}

/**
 * moneyMovementCheck (quote, accept, submit) that also remembers an attempt to pay a BLOCKED
 * beneficiary on the customer's console record: the answer is exactly the same 403, with the flag
 * committed (a kept error). Costs nothing on the allowed path.
 */
export async function paymentToBeneficiaryCheck(tx: Tx, beneficiary: BeneficiaryRow, now: Date): Promise<void> {
  if (beneficiaryMayMoveMoney(beneficiary.state)) return;
  try {
    moneyMovementCheck(beneficiary.state, beneficiary.id);
  } catch (err) {
    if (!(err instanceof DomainError) || beneficiary.state !== "BLOCKED") throw err;
    const [sub] = await tx.select({ customerId: subscriptions.customerId }).from(subscriptions).where(eq(subscriptions.id, beneficiary.subscriptionId));
    if (sub) await flagCustomer(tx, { customerId: sub.customerId, kind: "PAID_BLOCKED_BENEFICIARY", beneficiaryId: beneficiary.id, now });
    throw err.keepingChanges();
  }
}
