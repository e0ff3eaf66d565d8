import { screenBeneficiary } from "@/lib/payments/beneficiaries/screen-job";
import { emailClaimResolution } from "@/lib/payments/claims/resolution-email-job";
import { recomputeIdentityKeys } from "@/lib/identity/customers/identity-key-job";
import { screenCustomerPep } from "@/lib/identity/customers/pep-screen-job";
import { screenCustomer } from "@/lib/identity/customers/screen-job";
import { backfillNormalForms } from "@/lib/identity/identifiers/backfill-job";
import { expireKycSession } from "@/lib/identity/kyc/expire-job";
import { verifyKycSession } from "@/lib/identity";
import { notifyApprover } from "@/lib/operations/dual-control/notify";
import { deliverOtp } from "@/lib/operations/notifications/otp-delivery";
import { generatePayoutFilesJob, writePayoutFileJob } from "@/lib/payments/payouts/jobs";
import { verifyPayeeJob } from "@/lib/payments";
import { providerStatusJob, reverseLateJob, routePayoutJob, submitAttemptJob } from "@/lib/payments/payouts/routed";
import { emailReceipt } from "@/lib/payments/receipts/email-job";
import { evaluateOperationsAlerts } from "@/lib/operations/observability/alerts";
import { purgeJob } from "@/lib/operations/runtime/purge-job";
import { refreshReferenceRates } from "@/lib/payments/pricing/refresh-job";
import { rateCustomer, rateRecentSenders } from "@/lib/compliance";
import { refreshSanctionsList } from "@/lib/compliance/screening/refresh-job";
import { rescreenSubjects } from "@/lib/compliance/screening/rescreen-job";
import { expireTransfer } from "@/lib/payments/transfers/expire-job";
import { fastCheck } from "@/lib/payments/transfers/fast-check-job";
import { expireFundingSession } from "@/lib/payments/transfers/funding-expire-job";
import { networkStep } from "@/lib/payments/transfers/network";
import { advanceRefund } from "@/lib/payments/transfers/refunds";
import { deliverWebhook } from "@/lib/partners/webhooks/deliver-job";
import { probeWebhookEndpoint } from "@/lib/partners/webhooks/probe-job";
import type { JobDefinition, JobRegistry } from "@/lib/platform/jobs/define";
import type { JobKind, JobPayload } from "@/lib/platform/jobs/kinds";

/**
 * Every job kind the service runs. A kind missing here fails to compile. Only the process entry
 * points (instrumentation.ts, scripts/worker.ts) import it and hand it to the worker loop, so the
 * worker never imports the job modules (which import the queue): no import cycle. It lives in
 * operations, not platform: it names every context's jobs, and platform names no context.
 */
export const jobRegistry = {
  "webhooks.deliver": deliverWebhook,
  "webhooks.probe": probeWebhookEndpoint,
  "maintenance.purge": purgeJob,
  "customers.screen": screenCustomer,
  "customers.screenPep": screenCustomerPep,
  "customers.recomputeIdentityKeys": recomputeIdentityKeys,
  "identifiers.backfillNormalForms": backfillNormalForms,
  "customers.rate": rateCustomer,
  "customers.rateRecentSenders": rateRecentSenders,
  "kyc.expireSession": expireKycSession,
  "kyc.verify": verifyKycSession,
  "beneficiaries.screen": screenBeneficiary,
  "transfers.expire": expireTransfer,
  "transfers.fastCheck": fastCheck,
  "transfers.networkStep": networkStep,
  "transfers.refundStep": advanceRefund,
  "funding.expire": expireFundingSession,
  "referenceRates.refresh": refreshReferenceRates,
  "sanctions.refresh": refreshSanctionsList,
  "sanctions.rescreen": rescreenSubjects,
  "notifications.otpDelivery": deliverOtp,
  "receipts.email": emailReceipt,
  "claims.emailResolution": emailClaimResolution,
  "proposals.notifyApprover": notifyApprover,
  "payouts.generateFiles": generatePayoutFilesJob,
  "payouts.writeFile": writePayoutFileJob,
  "payouts.route": routePayoutJob,
  "payouts.submitAttempt": submitAttemptJob,
  "payouts.providerStatus": providerStatusJob,
  "payouts.reverseLate": reverseLateJob,
  "payouts.verifyPayee": verifyPayeeJob,
  "operations.alerts": evaluateOperationsAlerts,
} satisfies { [K in JobKind]: JobDefinition<JobPayload<K>> & { kind: K } } satisfies JobRegistry;
