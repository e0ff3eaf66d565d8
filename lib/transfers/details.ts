/**
 * The JSON records a transfer row carries (transfers.cancellation, transfers.refund), as the
 * domain writes them: spec 2.8's CancellationDetail and RefundDetail plus the timestamps operators
 * read. Typed once here so the column, the writers and the views agree.
 */
import type { RefundStatus } from "./refund-state-machine";

/** CancellationOutcome values of spec 2.9. */
export type CancellationOutcome =
  | "ABORTED_PRE_FUNDING"
  | "CANCELED_PRE_NETWORK"
  | "NETWORK_CANCELLATION_PENDING"
  | "NETWORK_CANCELLATION_SUCCESS"
  | "NETWORK_ALREADY_PAID"
  | "NETWORK_IN_PROGRESS_RETRY_ALLOWED";

export interface CancellationRecord {
  cancellationOutcome: CancellationOutcome;
  cancellationReason: string;
  cancelRequestedAt: string;
  /** Null while a network cancellation is pending. */
  canceledAt: string | null;
  networkCancellationExpectedBy?: string;
}

export interface RefundRecord {
  refundStatus: RefundStatus;
  refundMethod: "ORIGINAL_PAYMENT_METHOD";
  refundInitiatedAt: string;
  estimatedRefundCompletionBy: string;
  refundCompletedAt?: string;
  /** The operator's record of a refund paid from the bank ("operator" refunds provider). */
  bankReference?: string;
  /** Why the refund failed (operator's words or the provider's). */
  failureReason?: string;
}
