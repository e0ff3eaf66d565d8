import { minorUnitExponent } from "@/lib/platform/money/currency";
import { Decimal } from "@/lib/platform/money/decimal";
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

/** `shortfall`: what the credit lacks of the sum due, within the tolerance (written off), else null. */
export type MatchDecision = { fund: true; shortfall: string | null } | { fund: false; reason: QueueReason };

/**
 * The matching rule (docs/decisions.md "Bank transfer funding"): the RF reference names the
 * funding session; a session whose transfer is no longer waiting for money is LATE; then the
 * currency, then the amount must be the sum due, or short of it by at most `tolerance` (the
 * currency's BANK_CREDIT_SHORTFALL_TOLERANCE: the shortfall is written off).
 * Anything else waits for an operator. Amounts are compared as decimals ("102.9" equals "102.90").
 */
export function decideMatch(credit: { amount: string; currency: string }, target: MatchTarget | null, tolerance = "0"): MatchDecision {
  if (!target) return { fund: false, reason: "UNMATCHED" };
  const open = target.transferState === "funding" && !target.transferExpired && target.sessionState === "OPEN" && !target.sessionExpired;
  if (!open) return { fund: false, reason: "LATE" };
  if (credit.currency !== target.currency) return { fund: false, reason: "WRONG_CURRENCY" };
  const short = new Decimal(target.due).minus(credit.amount);
  if (short.isNeg()) return { fund: false, reason: "OVERPAID" };
  if (short.isZero()) return { fund: true, shortfall: null };
  if (short.lte(tolerance)) return { fund: true, shortfall: short.toFixed(minorUnitExponent(credit.currency)) };
  return { fund: false, reason: "PARTIAL" };
}

/** The currency's shortfall tolerance (config BANK_CREDIT_SHORTFALL_TOLERANCE), "0" when none is set. */
export function shortfallTolerance(tolerances: Readonly<Record<string, string>>, currency: string): string {
  return tolerances[currency] ?? "0";
}
