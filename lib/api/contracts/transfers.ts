import { z } from "zod";
import { defineContract } from "@/lib/http/contract";
import { REFUND_STATUSES } from "@/lib/transfers/refund-state-machine";
import { CUSTOMER_ACTIONS_EXPECTED, TRANSFER_STATES } from "@/lib/transfers/state-machine";
import { commaSeparated, Timestamp } from "../schemas";
import { PURPOSES } from "./quotes";

const tags = ["Transfers"];
const money = z.string().meta({ example: "100.000000" });
export const TransferStateSchema = z.enum(TRANSFER_STATES).meta({ id: "TransferState" });
const transferId = z.object({ transferId: z.string().min(1).max(64) });

export const PayoutMethodMaskedSchema = z
  .object({
    payoutMethodId: z.string(),
    methodType: z.string(),
    corridor: z.string(),
    destinationIdentifierMasked: z.string().meta({ description: "Last 4 characters (last 6 for wallets)." }),
    addedAt: Timestamp,
    archived: z.boolean(),
  })
  .meta({ id: "PayoutMethodMasked" });

const FundingSessionSchema = z
  .object({ fundingSessionId: z.string(), fundingWebviewUrl: z.string().nullable(), expiresAt: Timestamp })
  .meta({ id: "FundingSession", description: "fundingWebviewUrl is only returned by confirm (a one-time capability); null on reads." });

const RefundSchema = z
  .object({
    refundStatus: z.enum(REFUND_STATUSES).optional(),
    estimatedRefundCompletionBy: Timestamp.optional(),
    refundMethod: z.literal("ORIGINAL_PAYMENT_METHOD").optional(),
  })
  .meta({ id: "RefundDetail" });

const CancellationSchema = z
  .object({
    cancellationOutcome: z.string().optional(),
    cancellationReason: z.string().optional(),
    cancelRequestedAt: Timestamp.optional(),
    canceledAt: Timestamp.nullable().optional(),
    networkCancellationExpectedBy: Timestamp.optional(),
  })
  .meta({ id: "CancellationDetail" });

const SummaryFields = {
  transferId: z.string(),
  transferStatus: TransferStateSchema,
  originAmount: money,
  originCurrency: z.string(),
  destinationAmount: money,
  destinationCurrency: z.string(),
  beneficiaryId: z.string(),
  createdAt: Timestamp,
  transferStateChangedAt: Timestamp,
};

export const TransferDetailSchema = z
  .object({
    ...SummaryFields,
    fxRate: z.string(),
    principalFee: money,
    partnerFee: money,
    totalCustomerCost: money,
    totalCustomerCostCurrency: z.string(),
    payoutMethod: PayoutMethodMaskedSchema.nullable(),
    purposeOfTransfer: z.string(),
    quoteId: z.string(),
    submittedAt: Timestamp.nullable(),
    confirmedAt: Timestamp.nullable(),
    transferExpiresAt: Timestamp.optional().meta({ description: "Only in registered, onreview, validated, funding." }),
    nextStep: z.string().nullable(),
    customerActionExpected: z.enum(CUSTOMER_ACTIONS_EXPECTED),
    confirmationChallenge: z.string().optional().meta({ description: "Only in validated; every read issues a new one." }),
    confirmationChallengeExpiresAt: Timestamp.optional(),
    fundingSession: FundingSessionSchema.optional(),
    cancellation: CancellationSchema.nullable(),
    refund: RefundSchema.nullable(),
    stateHistory: z.array(z.object({ state: TransferStateSchema, transitionedAt: Timestamp, reasonCode: z.string() }).meta({ id: "StateHistoryEntry" })),
  })
  .meta({ id: "TransferDetailResponse" });

export const listTransfers = defineContract({
  operationId: "listTransfers",
  method: "GET",
  path: "/v1/core/transfers",
  summary: "List transfers (summaries), newest first",
  tags,
  auth: "customer",
  gate: "transferRead",
  query: z.object({
    states: commaSeparated(TRANSFER_STATES, "Comma-separated TransferState values.").optional(),
    createdSince: z.iso.datetime({ offset: true }).optional(),
    cursor: z.string().max(1024).optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  }),
  success: {
    status: 200,
    description: "A page.",
    schema: z
      .object({ items: z.array(z.object(SummaryFields).meta({ id: "TransferSummary" })), nextCursor: z.string().nullable() })
      .meta({ id: "TransferListResponse" }),
  },
  errors: ["customer.statusInsufficient", "customer.statusBlocking"],
});

export const readTransfer = defineContract({
  operationId: "readTransfer",
  method: "GET",
  path: "/v1/core/transfers/{transferId}",
  summary: "Read a transfer (issues a fresh confirmationChallenge in validated)",
  tags,
  auth: "customer",
  gate: "transferRead",
  params: transferId,
  success: { status: 200, description: "The transfer.", schema: TransferDetailSchema },
  errors: ["transfer.notFound", "customer.statusInsufficient", "customer.statusBlocking"],
});

export const submitTransfer = defineContract({
  operationId: "submitTransfer",
  method: "POST",
  path: "/v1/core/transfers/{transferId}/submit",
  summary: "Submit recipient, destination and purpose; the fast-check runs asynchronously",
  tags,
  auth: "customer",
  gate: "transferCommit",
  idempotency: "required",
  params: transferId,
  body: z
    .strictObject({
      beneficiaryId: z.string().min(1).max(64),
      payoutMethod: z.strictObject({
        methodType: z.string().min(1).max(40).meta({ example: "BANK_TRANSFER" }),
        destinationIdentifier: z.string().min(1).max(64).optional(),
        payoutMethodId: z.string().min(1).max(64).optional(),
      }),
      purposeOfTransfer: z.enum(PURPOSES),
    })
    .meta({
      id: "TransferSubmitRequest",
      example: {
        beneficiaryId: "ben_...",
        payoutMethod: { methodType: "BANK_TRANSFER", destinationIdentifier: "002010077777777771" },
        purposeOfTransfer: "FAMILY_SUPPORT",
      },
    }),
  success: {
    status: 202,
    description: "Accepted; still registered.",
    schema: z
      .object({
        transferId: z.string(),
        transferStatus: z.literal("registered"),
        beneficiaryId: z.string(),
        payoutMethod: PayoutMethodMaskedSchema,
        purposeOfTransfer: z.string(),
        submittedAt: Timestamp,
        fastCheckExpectedBy: Timestamp,
        nextStep: z.literal("AWAIT_FAST_CHECK"),
      })
      .meta({ id: "TransferSubmitResponse" }),
  },
  errors: [
    "transfer.notFound",
    "transfer.stateInvalid",
    "transfer.quoteExpired",
    "validation.payoutMethodConflict",
    "validation.destinationIdentifierMissing",
    "validation.payoutMethodTypeMismatch",
    "validation.methodNotAvailableForCorridor",
    "validation.fieldFormatInvalid",
    "beneficiary.stateInsufficient",
    "beneficiary.stateBlocking",
    "customer.statusInsufficient",
    "customer.statusBlocking",
    "subscription.spended",
  ],
});

export const confirmTransfer = defineContract({
  operationId: "confirmTransfer",
  method: "POST",
  path: "/v1/core/transfers/{transferId}/confirm",
  summary: "Release the funds with a device assertion; returns the funding webview URL",
  description:
    "deviceAssertion: compact JWS, RS256, kid of the registered device; claims transfer_id, amount, currency, beneficiary_id, device_id, nonce, challenge, iat.",
  tags,
  auth: "customer",
  gate: "transferCommit",
  idempotency: "required",
  params: transferId,
  body: z.strictObject({ deviceAssertion: z.string().min(1).max(16384) }).meta({
    id: "DeviceAssertion",
    example: { deviceAssertion: "eyJhbGciOiJSUzI1NiIsImtpZCI6Ii4uLiIsInR5cCI6IkpXVCJ9.eyJ0cmFuc2Zlcl9pZCI6InRyZl8uLi4ifQ.c2ln" },
  }),
  success: {
    status: 200,
    description: "Confirmed; funding.",
    schema: z
      .object({
        transferId: z.string(),
        transferStatus: z.literal("funding"),
        confirmedAt: Timestamp,
        nextStep: z.literal("OPEN_FUNDING_WEBVIEW"),
        fundingSession: FundingSessionSchema,
      })
      .meta({ id: "TransferConfirmResponse" }),
  },
  errors: [
    "transfer.notFound",
    "transfer.stateInvalid",
    "device.notRegistered",
    "device.deactivated",
    "device.assertionInvalid",
    "device.assertionLockout",
    "customer.statusInsufficient",
    "customer.statusBlocking",
    "subscription.spended",
  ],
});

export const cancelTransfer = defineContract({
  operationId: "cancelTransfer",
  method: "POST",
  path: "/v1/core/transfers/{transferId}/cancel",
  summary: "Cancel: aborted before funding (200), canceled with refund or network cancellation (202)",
  tags,
  auth: "customer",
  gate: "transferCancel",
  idempotency: "required",
  params: transferId,
  body: z
    .strictObject({ cancellationReason: z.enum(["CUSTOMER_REQUEST"]) })
    .meta({ id: "TransferCancelRequest", example: { cancellationReason: "CUSTOMER_REQUEST" } }),
  success: {
    status: 200,
    description: "Cancelled (202 when a refund or a network cancellation follows).",
    schema: z
      .object({
        transferId: z.string(),
        transferStatus: TransferStateSchema,
        cancellationOutcome: z.string(),
        canceledAt: Timestamp.nullable(),
        nextStep: z.string().nullable(),
        customerActionExpected: z.string(),
        networkCancellationExpectedBy: Timestamp.optional(),
        refund: RefundSchema.nullable(),
      })
      .meta({ id: "TransferCancelResponse" }),
  },
  errors: ["transfer.notFound", "transfer.stateInvalid", "customer.statusBlocking"],
});

const sandbox = <B extends z.ZodType>(operationId: string, path: string, summary: string, body: B) =>
  defineContract({
    operationId,
    method: "POST",
    path,
    summary: `${summary} (sandbox only)`,
    tags: ["Sandbox"],
    auth: "customer",
    sandboxOnly: true,
    params: transferId,
    body,
    success: { status: 200, description: "The transfer after the change.", schema: TransferDetailSchema },
    errors: ["transfer.notFound", "transfer.stateInvalid"],
  });

export const sandboxAdvance = sandbox(
  "sandboxAdvanceTransfer",
  "/v1/sandbox/transfers/{transferId}/advance",
  "Move a transfer along the payout network",
  z.strictObject({ to: z.enum(["topay", "reqpay", "paid"]) }),
);
export const sandboxNetworkCancellation = sandbox(
  "sandboxNetworkCancellation",
  "/v1/sandbox/transfers/{transferId}/network-cancellation",
  "Answer a pending network cancellation",
  z.strictObject({ outcome: z.enum(["NETWORK_CANCELLATION_SUCCESS", "NETWORK_ALREADY_PAID", "NETWORK_IN_PROGRESS_RETRY_ALLOWED"]) }),
);
export const sandboxComplianceHold = sandbox(
  "sandboxComplianceHold",
  "/v1/sandbox/transfers/{transferId}/compliance-hold",
  "Put a transfer on compliance hold",
  z.strictObject({}),
);
export const sandboxComplianceRelease = sandbox(
  "sandboxComplianceRelease",
  "/v1/sandbox/transfers/{transferId}/compliance-release",
  "Release a compliance hold",
  z.strictObject({ resolution: z.enum(["RESTORE", "REJECT"]) }),
);
export const sandboxReview = sandbox(
  "sandboxReview",
  "/v1/sandbox/transfers/{transferId}/review",
  "Decide a transfer in onreview",
  z.strictObject({ decision: z.enum(["APPROVE", "REJECT"]) }),
);

export const sandboxCompleteFunding = defineContract({
  operationId: "sandboxCompleteFunding",
  method: "POST",
  path: "/v1/sandbox/funding-sessions/{fundingSessionId}/complete",
  summary: "Complete a funding session, as the hosted page does (sandbox only)",
  tags: ["Sandbox"],
  auth: "customer",
  sandboxOnly: true,
  params: z.object({ fundingSessionId: z.string().min(1).max(64) }),
  body: z.strictObject({ outcome: z.enum(["SUCCEEDED", "FAILED"]) }).meta({ id: "SandboxFundingCompleteRequest" }),
  success: {
    status: 200,
    description: "The funding session's end.",
    schema: z
      .object({ fundingSessionId: z.string(), sessionState: z.string(), transferStatus: TransferStateSchema })
      .meta({ id: "SandboxFundingCompleteResponse" }),
  },
  errors: ["fundingSession.notFound", "funding.sessionExpired", "funding.sessionStateInvalid", "transfer.stateInvalid"],
});
