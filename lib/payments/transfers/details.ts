/**
 * The cancellation record a transfer row carries (transfers.cancellation): what the customer asked
 * and, for a cancellation decided at once, its outcome. A cancellation sent to the payout network
 * has its outcome in its own row (network_cancellations, its machine in
 * network-cancellation-state-machine.ts); refunds have theirs (refunds, refund-state-machine.ts).
 * The record is written once, with the transfer's cancel transition, and never changes state.
 */
import { type PayeeVerificationRecord } from "@/db/schema/transfers";
export { type ImmediateCancellationOutcome, type CancellationRecord, type PayeeVerificationRecord } from "@/db/schema/transfers";

/** CancellationOutcome values of spec 2.9. */
export type CancellationOutcome =
  | "ABORTED_PRE_FUNDING"
  | "CANCELED_PRE_NETWORK"
  | "NETWORK_CANCELLATION_PENDING"
  | "NETWORK_CANCELLATION_SUCCESS"
  | "NETWORK_ALREADY_PAID"
  | "NETWORK_IN_PROGRESS_RETRY_ALLOWED";

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
