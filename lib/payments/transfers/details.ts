/**
 * The cancellation record a transfer row carries (transfers.cancellation): what the customer asked
 * and, for a cancellation decided at once, its outcome. A cancellation sent to the payout network
 * has its outcome in its own row (network_cancellations, its machine in
 * network-cancellation-state-machine.ts); refunds have theirs (refunds, refund-state-machine.ts).
 * The record is written once, with the transfer's cancel transition, and never changes state.
 */

/** CancellationOutcome values of spec 2.9. */
export type CancellationOutcome =
  | "ABORTED_PRE_FUNDING"
  | "CANCELED_PRE_NETWORK"
  | "NETWORK_CANCELLATION_PENDING"
  | "NETWORK_CANCELLATION_SUCCESS"
  | "NETWORK_ALREADY_PAID"
  | "NETWORK_IN_PROGRESS_RETRY_ALLOWED";

/** The outcomes decided when the customer cancels (no network involved). */
export type ImmediateCancellationOutcome = "ABORTED_PRE_FUNDING" | "CANCELED_PRE_NETWORK";

export interface CancellationRecord {
  cancellationReason: string;
  cancelRequestedAt: string;
  /** Absent when the cancellation went to the payout network: its network_cancellations row answers. */
  cancellationOutcome?: ImmediateCancellationOutcome;
  canceledAt?: string;
}

/** A transfer's payee verification as kept (transfers.payee_verification). */
export interface PayeeVerificationRecord {
  result: "MATCH" | "CLOSE_MATCH" | "NO_MATCH" | "NOT_POSSIBLE";
  /** CLOSE_MATCH: the name the account's bank holds. */
  nameHeld?: string;
  checkedAt: string;
  provider: string;
  /** The payout method (destination) the answer is for: a new one (a repair) is verified again. Absent on records before it was kept. */
  payoutMethodId?: string;
  /** The customer confirmed after a NO_MATCH or CLOSE_MATCH. */
  proceededAt?: string;
}

/** The detail's payeeVerification (additive field of TransferDetailResponse). */
export function payeeVerificationView(record: PayeeVerificationRecord | null) {
  if (!record) return undefined;
  return {
    result: record.result,
    ...(record.nameHeld ? { nameHeld: record.nameHeld } : {}),
    checkedAt: record.checkedAt,
    ...(record.proceededAt ? { proceededAfterWarningAt: record.proceededAt } : {}),
  };
}
