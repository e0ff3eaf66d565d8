import { isAtOrAboveReviewThreshold } from "@/lib/corridors/corridors";
import type { Corridor } from "@/lib/corridors/schema";
import { Decimal } from "@/lib/money/decimal";

/**
 * Why a transfer that passed the fast-check goes to operator review (onreview) instead of
 * validated (decisions 7): the customer is MONITORED, or the amount is at or above the corridor's
 * review threshold. Empty when neither holds. Stated once: the fast-check decides with it and the
 * console's review queue shows the same reasons.
 */
export function reviewReasons(input: { customerStatus: string; corridor: Corridor | undefined; originAmount: string }): string[] {
  const reasons: string[] = [];
  if (input.customerStatus === "MONITORED") reasons.push("customer MONITORED");
  const { corridor } = input;
  if (corridor && isAtOrAboveReviewThreshold(corridor, new Decimal(input.originAmount))) {
    reasons.push(`amount ≥ ${corridor.reviewThreshold.toString()} ${corridor.originCurrency}`);
  }
  return reasons;
}
