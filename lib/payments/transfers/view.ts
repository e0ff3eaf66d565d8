import { eq, sql } from "drizzle-orm";
import { prepared } from "@/db/prepared";
import type { Executor } from "@/db";
import { payoutMethods } from "@/db/schema";
import { payoutMethodView } from "@/lib/payments/beneficiaries/records";
import { clock } from "@/lib/platform/clock";
import { transferDelivery } from "@/lib/payments/delivery/transfer-delivery";
import { payoutRejection } from "@/lib/payments/payouts/reject-reasons";
import { customerActionExpectedFor, isPreFunding, nextStepFor } from "./state-machine";
import { transferWithDetail, type TransferWithDetail } from "./detail-query";
import { payeeVerificationView } from "./details";
import { cancellationView } from "./network-cancellations";
import type { TransferRow } from "./records";
import { refundView } from "./refunds";

/** TransferSummary (spec 2.7): the list projection, nothing more. */
export function transferSummary(row: TransferRow) {
  return {
    transferId: row.id,
    transferStatus: row.state,
    originAmount: row.originAmount,
    originCurrency: row.originCurrency,
    destinationAmount: row.destinationAmount,
    destinationCurrency: row.destinationCurrency,
    beneficiaryId: row.beneficiaryId,
    createdAt: row.createdAt.toISOString(),
    transferStateChangedAt: row.stateChangedAt.toISOString(),
  };
}

export async function maskedPayoutMethod(db: Executor, payoutMethodId: string | null) {
  if (!payoutMethodId) return null;
  const [m] = await prepared(db, "payout_method", (e) =>
    e
      .select()
      .from(payoutMethods)
      .where(eq(payoutMethods.id, sql.placeholder("id")))
      .prepare("payout_method"),
  ).execute({ id: payoutMethodId });
  return m ? payoutMethodView(m) : null;
}

/**
 * TransferDetailResponse (spec 2.7): each optional field present exactly when the spec says:
 * transferExpiresAt only before funding, confirmationChallenge only in validated, fundingSession
 * only in funding, nextStep null and customerActionExpected NONE on terminal states.
 * An absent field is undefined, which JSON leaves out: one literal, in the wire's order, where
 * conditional spreads cost several times the object's own building per read.
 */
export function transferDetailView(
  { row, payoutMethod, history, session, rejection, refund, networkCancellation, payoutRepair }: TransferWithDetail,
  now: Date,
) {
  const state = row.state;
  const delivery = transferDelivery(row, history, now);
  const challenge = state === "validated" && row.challenge ? row.challenge : undefined;
  return {
    transferId: row.id,
    transferStatus: state,
    originAmount: row.originAmount,
    originCurrency: row.originCurrency,
    destinationAmount: row.destinationAmount,
    destinationCurrency: row.destinationCurrency,
    beneficiaryId: row.beneficiaryId,
    createdAt: row.createdAt.toISOString(),
    transferStateChangedAt: row.stateChangedAt.toISOString(),
    fxRate: row.fxRate,
    principalFee: row.principalFee,
    partnerFee: row.partnerFee,
    totalCustomerCost: row.totalCustomerCost,
    totalCustomerCostCurrency: row.originCurrency,
    payoutMethod: payoutMethod ? payoutMethodView(payoutMethod) : null,
    purposeOfTransfer: row.purposeOfTransfer,
    quoteId: row.quoteId,
    submittedAt: row.submittedAt?.toISOString() ?? null,
    confirmedAt: row.confirmedAt?.toISOString() ?? null,
    transferExpiresAt: isPreFunding(state) ? row.expiresAt.toISOString() : undefined,
    // Ours: when the money is available to the recipient, and what that is counted from.
    estimatedDeliveryBy: delivery?.estimatedDeliveryBy.toISOString(),
    estimatedDeliveryBasis: delivery?.basis,
    nextStep: nextStepFor(state),
    // A held transfer (spended) waits for compliance first, whatever its payout.
    customerActionExpected: customerActionExpectedFor(state, payoutRepair != null && state !== "spended"),
    confirmationChallenge: challenge,
    confirmationChallengeExpiresAt: challenge ? row.challengeExpiresAt?.toISOString() : undefined,
    // The webview URL is a one-time capability: only the confirm response carries it (spec 4.1 rule 11).
    fundingSession: session ? { fundingSessionId: session.id, fundingWebviewUrl: null, expiresAt: session.expiresAt.toISOString() } : undefined,
    cancellation: cancellationView(row.cancellation, networkCancellation),
    refund: refundView(refund, row),
    // Ours: why the payout bank refused the payment; never a compliance reason.
    rejectionReason: rejection ? payoutRejection(rejection.isoReasonCode) : undefined,
    // The bank rejected the account; the app may give a new destination (payout-repair).
    payoutRepair: payoutRepair
      ? { rejectionReason: payoutRejection(payoutRepair.isoReasonCode), rejectedAt: payoutRepair.rejectedAt.toISOString() }
      : undefined,
    // Ours: the name on the destination account checked (routed payouts), and a confirmation despite a warning.
    payeeVerification: payeeVerificationView(row.payeeVerification),
    stateHistory: history.map((h) => ({ state: h.state, transitionedAt: h.transitionedAt.toISOString(), reasonCode: h.reasonCode })),
  };
}

/** The detail of a transfer known by its row (read again with its history in one statement). */
export async function transferDetail(db: Executor, row: TransferRow, now: Date = clock.now()) {
  return transferDetailView(await transferWithDetail(db, row.subscriptionId, row.id), now);
}
