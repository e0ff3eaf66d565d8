import { Decimal } from "@/lib/money/decimal";
import type { QueueReason } from "./bank-credit-state-machine";

/** The funding session a credit's reference names, as the matcher sees it (rows locked by the caller). */
export interface MatchTarget {
  transferState: string;
  /** The transfer's 120-minute deadline has passed (it expires now, if still before funding). */
  transferExpired: boolean;
  sessionState: string;
  sessionExpired: boolean;
  /** The exact sum due (amountDue) and its currency. */
  due: string;
  currency: string;
}

export type MatchDecision = { fund: true } | { fund: false; reason: QueueReason };

/**
 * The matching rule (docs/decisions.md "Bank transfer funding"): the RF reference names the
 * funding session; a session whose transfer is no longer waiting for money is LATE; then the
 * currency, then the amount must be exactly the sum due. Anything but a full match waits for an
 * operator. Amounts are compared as decimals ("102.9" equals "102.90").
 */
export function decideMatch(credit: { amount: string; currency: string }, target: MatchTarget | null): MatchDecision {
  if (!target) return { fund: false, reason: "UNMATCHED" };
  const open = target.transferState === "funding" && !target.transferExpired && target.sessionState === "OPEN" && !target.sessionExpired;
  if (!open) return { fund: false, reason: "LATE" };
  if (credit.currency !== target.currency) return { fund: false, reason: "WRONG_CURRENCY" };
  const cmp = new Decimal(credit.amount).comparedTo(new Decimal(target.due));
  if (cmp < 0) return { fund: false, reason: "PARTIAL" };
  if (cmp > 0) return { fund: false, reason: "OVERPAID" };
  return { fund: true };
}
