/**
 * Every job kind and its payload. Payloads hold ids only: a job reads the current state when it
 * runs, so a late or repeated run acts on the truth, not on a stale copy.
 */
import type { RefundStatus } from "@/db/schema/refunds";
export interface JobPayloads {
  "webhooks.deliver": { eventId: string };
  /** since: the failure that started the probing (its schedule counts from it). */
  "webhooks.probe": { partnerId: string; since: string };
  "maintenance.purge": Record<string, never>;
  /** listVersionId: a rescreen after a new sanctions list version (only a stronger result changes the status). */
  "customers.screen": { customerId: string; listVersionId?: string };
  /** One walk over customers in id order (afterId: the last id of the previous batch), after a change of the matching form. */
  "customers.recomputeIdentityKeys": { afterId: string | null };
  /** One walk filling the stored normal forms (customers' address keys, then login identifiers' match keys), in id order. */
  "identifiers.backfillNormalForms": { table: "customers" | "login_identifiers"; afterId: string | null };
  /** cause: what changed (e.g. "case.opened", "report.filed"), kept in the rating's history. */
  "customers.rate": { customerId: string; cause: string };
  "customers.rateRecentSenders": Record<string, never>;
  "kyc.expireSession": { kycSessionId: string };
  /** The machine's verification of a submitted KYC session (automatic or vendor). */
  "kyc.verify": { kycSessionId: string };
  "beneficiaries.screen": { beneficiaryId: string; listVersionId?: string };
  "transfers.expire": { transferId: string };
  "transfers.fastCheck": { transferId: string };
  "transfers.networkStep": { transferId: string; from: string };
  "transfers.refundStep": { transferId: string; from?: RefundStatus };
  "funding.expire": { fundingSessionId: string };
  "referenceRates.refresh": Record<string, never>;
  /** list: one list ("ofac-sdn", "ofac-consolidated", "un-consolidated", "opensanctions-peps"); absent: each. */
  "sanctions.refresh": { list?: string };
  "notifications.otpDelivery": { deliveryId: string };
  "receipts.email": { transferId: string };
  /** A resolved claim's notice to its customer. */
  "claims.emailResolution": { claimId: string };
  /** An e-mail to one operator who may approve a waiting proposal. */
  "proposals.notifyApprover": { proposalId: string; operatorId: string };
  "payouts.generateFiles": Record<string, never>;
  /** The operations alert conditions judged on the database (lib/operations/observability/alerts.ts). */
  "operations.alerts": Record<string, never>;
  "payouts.writeFile": { payoutFileId: string };
  /** The routed payout: choose a provider for a transfer, submit one try, apply a provider's status, reverse a late success. */
  "payouts.route": { transferId: string };
  "payouts.submitAttempt": { attemptId: string };
  "payouts.providerStatus": {
    externalId: string;
    status: "COMPLETED" | "REJECTED" | "CANCELLED" | "REVERSED";
    reasonCode: string | null;
    reference: string | null;
  };
  "payouts.reverseLate": { attemptId: string };
  /** The payee verification of a submitted transfer's destination (routed payout). */
  "payouts.verifyPayee": { transferId: string };
  /** listVersionId: the new list version, or "matching-form-N" for the one rescreen after a change of the matching form. */
  /** subjectType "pep": the customers again, screened against the PEP lists (customers.screenPep). */
  "sanctions.rescreen": { listVersionId: string; subjectType: "customer" | "beneficiary" | "pep"; afterId: string | null };
  /** PEP screening of a customer's profile; listVersionId: after a new PEP list version. */
  "customers.screenPep": { customerId: string; listVersionId?: string };
}

export type JobKind = keyof JobPayloads;
export type JobPayload<K extends JobKind> = JobPayloads[K];
