import type { Tx } from "@/db";
import { raiseAlert } from "../cases/cases";
import { PEP_REVIEW_REASON } from "../cases/pep";
import { reviewThresholdRatio, type Rating } from "../risk-rating/model";
import { isAtOrAboveReviewThreshold, type Corridor } from "@/lib/payments";
import { Decimal } from "@/lib/platform/money/decimal";

/**
 * Why a transfer that passed the fast-check goes to operator review (onreview) instead of
 * validated (decisions 7): the customer is MONITORED, the amount is at or above the corridor's
 * review threshold (a share of it for a HIGH-rated customer, data/risk-rating/factors.json), the
 * beneficiary or customer has an open screening case (a case cleared since is said so, for the
 * reviewer who approves), or the customer is a PEP not yet approved. Empty when none holds.
 * Stated once: the fast-check decides with it and the
 * console's review queue shows the same reasons.
 */
export function reviewReasons(input: {
  customerStatus: string;
  corridor: Corridor | undefined;
  originAmount: string;
  openScreeningCase?: boolean;
  /** The console's queue: the state of the subject's latest screening case, if any. */
  screeningCase?: string | null;
  /** The customer is a PEP whose ENHANCED KYC and admin approval are not yet done (lib/compliance/cases/pep.ts). */
  pepApprovalPending?: boolean;
  /** The customer's stored risk rating (null before its first: as LOW). */
  rating?: Rating | null;
}): string[] {
  const reasons: string[] = [];
  if (input.customerStatus === "MONITORED") reasons.push("customer MONITORED");
  if (input.pepApprovalPending) reasons.push(PEP_REVIEW_REASON);
  if (input.openScreeningCase || input.screeningCase === "OPEN") reasons.push("open screening case");
  else if (input.screeningCase === "FALSE_POSITIVE") reasons.push("screening case cleared as a false positive");
  const { corridor } = input;
  if (corridor && isAtOrAboveReviewThreshold(corridor, new Decimal(input.originAmount))) {
    reasons.push(`amount ≥ ${corridor.reviewThreshold.toString()} ${corridor.originCurrency}`);
  } else if (corridor) {
    const ratio = reviewThresholdRatio(input.rating);
    const lowered = new Decimal(corridor.reviewThreshold.toString()).mul(ratio);
    if (ratio.lt(1) && new Decimal(input.originAmount).gte(lowered)) {
      reasons.push(`customer rated ${input.rating}: amount ≥ ${lowered.toFixed()} ${corridor.originCurrency}`);
    }
  }
  return reasons;
}

/** A transfer sent to onreview by these rules is an alert in its customer's case (console only). */
export async function raiseReviewAlert(tx: Tx, row: { id: string; customerId: string; beneficiaryId: string }, reasons: string[], now: Date) {
  await raiseAlert(tx, {
    customerId: row.customerId,
    kind: "REVIEW_RULE",
    transferId: row.id,
    beneficiaryId: row.beneficiaryId,
    summary: reasons.join("; "),
    now,
  });
}
