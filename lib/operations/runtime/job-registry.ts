import {
  fastCheck,
  screenBeneficiary,
  screenCustomerPep,
  screenCustomer,
  refreshSanctionsList,
  rescreenSubjects,
  rateCustomer,
  rateRecentSenders,
} from "@/lib/compliance";
import {
  generatePayoutFilesJob,
  writePayoutFileJob,
  providerStatusJob,
  reverseLateJob,
  routePayoutJob,
  submitAttemptJob,
  emailReceipt,
  expireFundingSession,
  emailClaimResolution,
  refreshReferenceRates,
  expireTransfer,
  networkStep,
  advanceRefund,
  verifyPayeeJob,
} from "@/lib/payments";
import { deliverOtp, recomputeIdentityKeys, backfillNormalForms, expireKycSession, verifyKycSession } from "@/lib/identity";
import { notifyApprover } from "@/lib/operations/dual-control/notify";
import { evaluateOperationsAlerts } from "@/lib/operations/observability/alerts";
import { purgeJob } from "@/lib/operations/runtime/purge-job";
import { deliverWebhook, probeWebhookEndpoint } from "@/lib/partners";
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
