import { z } from "zod";
import { defineContract } from "@/lib/interface/http/contract";
import { DELIVERY_BASES, REFUND_STATUSES, CUSTOMER_ACTIONS_EXPECTED, TRANSFER_STATES } from "@/lib/payments";
import { commaSeparated, Timestamp } from "../schemas";
import { PURPOSES } from "./quotes";
import { EX } from "../examples/ids";

const tags = ["Transfers"];
const money = z.string().meta({ example: "100.000000" });
export const TransferStateSchema = z.enum(TRANSFER_STATES).meta({ id: "TransferState" });
const transferId = z.object({
  transferId: z.string().min(1).max(64).meta({ description: "The transfer, from quote acceptance or the list.", example: EX.transferId }),
});

const PAYOUT_METHOD_EXAMPLE = {
  payoutMethodId: EX.payoutMethodId,
  methodType: "BANK_TRANSFER",
  corridor: "US-MX",
  destinationIdentifierMasked: "****7771",
  addedAt: EX.at(10, 40),
  archived: false,
};
const HISTORY = [
  { state: "registered", transitionedAt: EX.at(10, 20), reasonCode: "TRF_INITIATION_QUOTE_ACCEPTED" },
  { state: "validated", transitionedAt: EX.at(10, 45), reasonCode: "TRF_CHECK_PASSED" },
  { state: "funding", transitionedAt: EX.at(11, 30), reasonCode: "TRF_AUTH_DEVICE_VERIFIED" },
  { state: "funded", transitionedAt: EX.at(11, 50), reasonCode: "TRF_FUNDING_SUCCESS" },
  { state: "topay", transitionedAt: EX.at(11, 55), reasonCode: "TRF_NETWORK_TO_PAY" },
  { state: "reqpay", transitionedAt: EX.at(12, 0), reasonCode: "TRF_NETWORK_REQUEST_PAY" },
  { state: "paid", transitionedAt: EX.at(12, 10), reasonCode: "TRF_PAID" },
];
const SUMMARY_EXAMPLE = {
  transferId: EX.transferId,
  transferStatus: "validated",
  originAmount: "100.000000",
  originCurrency: "USD",
  destinationAmount: "1875.000000",
  destinationCurrency: "MXN",
  beneficiaryId: EX.beneficiaryId,
  createdAt: EX.at(10, 20),
  transferStateChangedAt: EX.at(10, 45),
};
/** The journey's transfer in validated, as a read shows it: a fresh confirmationChallenge. */
const DETAIL_EXAMPLE = {
  ...SUMMARY_EXAMPLE,
  fxRate: "18.750000",
  principalFee: "2.990000",
  partnerFee: "1.000000",
  totalCustomerCost: "103.990000",
  totalCustomerCostCurrency: "USD",
  payoutMethod: PAYOUT_METHOD_EXAMPLE,
  purposeOfTransfer: "FAMILY_SUPPORT",
  quoteId: EX.quoteId,
  submittedAt: EX.at(10, 40),
  confirmedAt: null,
  transferExpiresAt: "2026-11-21T12:10:20.000Z",
  estimatedDeliveryBy: "2026-11-20T23:00:00.000Z",
  estimatedDeliveryBasis: "IF_FUNDED_NOW",
  nextStep: "CONFIRM_TRANSFER",
  customerActionExpected: "CONFIRM",
  confirmationChallenge: "Hq4Zp8Wn2Kx6Tb1Rm9Vc3Ly7",
  confirmationChallengeExpiresAt: EX.at(20, 45),
  cancellation: null,
  refund: null,
  stateHistory: HISTORY.slice(0, 2),
};
/** The same transfer paid (what the sandbox's advance to paid answers). */
const PAID_EXAMPLE = {
  ...DETAIL_EXAMPLE,
  transferStatus: "paid",
  transferStateChangedAt: EX.at(12, 10),
  confirmedAt: EX.at(11, 30),
  transferExpiresAt: undefined,
  estimatedDeliveryBy: undefined,
  estimatedDeliveryBasis: undefined,
  nextStep: null,
  customerActionExpected: "NONE",
  confirmationChallenge: undefined,
  confirmationChallengeExpiresAt: undefined,
  stateHistory: HISTORY,
};

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
    refundAmount: money.optional().meta({
      description: 'Extension: what is refunded, always the total the customer paid, fees included (docs/decisions.md, "Consumer protection").',
    }),
    refundCurrency: z.string().optional().meta({ description: "Extension: the currency of refundAmount (the origin currency)." }),
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

export const PayoutRejectionSchema = z
  .object({
    code: z.string().meta({ example: "PAYOUT_ACCOUNT_CLOSED" }),
    isoReasonCode: z
      .string()
      .nullable()
      .meta({ description: "The ISO 20022 status reason code the payout bank sent (StsRsnInf/Rsn), null when none.", example: "AC04" }),
    description: z.string().meta({ description: "The reason in words.", example: "Account closed" }),
  })
  .meta({
    id: "PayoutRejection",
    description:
      "Extension (docs/decisions.md): why the payout bank refused the payment. Present only when it did (transferStatus rejected, or canceled when a cancellation was pending); the refund follows.",
  });

const PayoutRepairSchema = z
  .object({
    rejectionReason: PayoutRejectionSchema,
    rejectedAt: Timestamp,
  })
  .meta({
    id: "PayoutRepairRequired",
    description:
      "Extension (docs/decisions.md): the payout bank rejected the beneficiary's account and the payout waits for a new destination (POST /v1/core/transfers/{transferId}/payout-repair) or the operator's refund. Present only then (transferStatus topay, reqpay or spended).",
  });

const PayeeVerificationSchema = z
  .object({
    result: z.enum(["MATCH", "CLOSE_MATCH", "NO_MATCH", "NOT_POSSIBLE"]).meta({
      description:
        "MATCH: the name matches the account's holder. CLOSE_MATCH: nearly; nameHeld is the name the bank holds. NO_MATCH: it does not. NOT_POSSIBLE: the account's bank could not say. The customer may confirm after any answer.",
    }),
    nameHeld: z.string().optional().meta({ description: "CLOSE_MATCH only: the name the account's bank holds, to show the customer." }),
    checkedAt: Timestamp,
    proceededAfterWarningAt: Timestamp.optional().meta({
      description: "When the customer confirmed after a NO_MATCH or CLOSE_MATCH (recorded for an error claim).",
    }),
  })
  .meta({
    id: "PayeeVerification",
    description:
      "Extension (docs/decisions.md, Routed payouts): the name of the beneficiary checked against the destination account (EU Verification of Payee, UK Confirmation of Payee) after submit, before confirmation. Present once answered, on routed payouts.",
  });

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
    estimatedDeliveryBy: Timestamp.optional().meta({
      description:
        "Extension: when the money is available to the recipient (business days, cut-off and both countries' public holidays of the corridor and payout method). Absent once the transfer has ended.",
    }),
    estimatedDeliveryBasis: z.enum(DELIVERY_BASES).optional().meta({
      description:
        "What estimatedDeliveryBy counts from: FUNDED (the funding), IF_FUNDED_NOW (not yet funded: if funded now), ON_HOLD (held for review or compliance: if released now, later otherwise).",
    }),
    nextStep: z.string().nullable(),
    customerActionExpected: z.enum(CUSTOMER_ACTIONS_EXPECTED),
    confirmationChallenge: z.string().optional().meta({ description: "Only in validated; every read issues a new one." }),
    confirmationChallengeExpiresAt: Timestamp.optional(),
    fundingSession: FundingSessionSchema.optional(),
    cancellation: CancellationSchema.nullable(),
    refund: RefundSchema.nullable(),
    rejectionReason: PayoutRejectionSchema.optional(),
    payoutRepair: PayoutRepairSchema.optional(),
    payeeVerification: PayeeVerificationSchema.optional(),
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
    states: commaSeparated(TRANSFER_STATES, "Comma-separated TransferState values.")
      .optional()
      .meta({ description: "Comma-separated TransferState values. Default: every non-terminal state, and terminal states of the last 30 days." }),
    createdSince: z.iso.datetime({ offset: true }).optional().meta({ description: "RFC 3339: transfers created at or after this time." }),
    cursor: z.string().max(1024).optional().meta({ description: "Opaque: nextCursor of the previous page; omitted for the first page." }),
    limit: z.coerce.number().int().min(1).max(200).default(50).meta({ description: "Page size, 1 to 200." }),
  }),
  success: {
    status: 200,
    description: "A page.",
    schema: z
      .object({ items: z.array(z.object(SummaryFields).meta({ id: "TransferSummary" })), nextCursor: z.string().nullable() })
      .meta({ id: "TransferListResponse" }),
  },
  examples: { response: { items: [SUMMARY_EXAMPLE], nextCursor: null } },
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
  examples: { response: DETAIL_EXAMPLE },
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
    .meta({ id: "TransferSubmitRequest" }),
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
  examples: {
    request: {
      beneficiaryId: EX.beneficiaryId,
      payoutMethod: { methodType: "BANK_TRANSFER", destinationIdentifier: "002010077777777771" },
      purposeOfTransfer: "FAMILY_SUPPORT",
    },
    response: {
      transferId: EX.transferId,
      transferStatus: "registered",
      beneficiaryId: EX.beneficiaryId,
      payoutMethod: PAYOUT_METHOD_EXAMPLE,
      purposeOfTransfer: "FAMILY_SUPPORT",
      submittedAt: EX.at(10, 40),
      fastCheckExpectedBy: EX.at(10, 45),
      nextStep: "AWAIT_FAST_CHECK",
    },
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
  body: z.strictObject({ deviceAssertion: z.string().min(1).max(16384) }).meta({ id: "DeviceAssertion" }),
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
  examples: {
    request: {
      deviceAssertion:
        "eyJhbGciOiJSUzI1NiIsImtpZCI6ImRldi1rZXktMjAyNi0xMSIsInR5cCI6IkpXVCJ9.eyJ0cmFuc2Zlcl9pZCI6InRyZl84azJtNXE5ZDN4N2MxdjRiNm4wcDlyM3QiLCJhbW91bnQiOiIxMDAuMDAwMDAwIiwiY3VycmVuY3kiOiJVU0QiLCJiZW5lZmljaWFyeV9pZCI6ImJlbl83aDNrOWQybTVxOHcxeDRjNnYwYjJuN3AiLCJkZXZpY2VfaWQiOiJkZXZfMnE3azRtOWQxeDZjM3Y4YjBuNXAycjd3Iiwibm9uY2UiOiJuXzRmOWsybTdxIiwiY2hhbGxlbmdlIjoiSHE0WnA4V24yS3g2VGIxUm05VmMzTHk3IiwiaWF0IjoxNzk1MjU1ODg1fQ.c2lnbmF0dXJl",
    },
    response: {
      transferId: EX.transferId,
      transferStatus: "funding",
      confirmedAt: EX.at(11, 30),
      nextStep: "OPEN_FUNDING_WEBVIEW",
      fundingSession: {
        fundingSessionId: EX.fundingSessionId,
        fundingWebviewUrl: "https://remit.example.com/webviews/funding/wv_Jt6Nc2Xq8Rb4Lm1Vz7Kp3Wd9",
        expiresAt: EX.at(41, 30),
      },
    },
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
  body: z.strictObject({ cancellationReason: z.enum(["CUSTOMER_REQUEST"]) }).meta({ id: "TransferCancelRequest" }),
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
  examples: {
    request: { cancellationReason: "CUSTOMER_REQUEST" },
    response: {
      transferId: EX.transferId,
      transferStatus: "aborted",
      cancellationOutcome: "ABORTED_PRE_FUNDING",
      canceledAt: EX.at(11, 0),
      nextStep: null,
      customerActionExpected: "NONE",
      refund: null,
    },
    otherResponses: {
      202: {
        description: "Canceled after funding: the refund (or the payout network's cancellation) follows.",
        example: {
          transferId: EX.transferId,
          transferStatus: "canceled",
          cancellationOutcome: "CANCELED_PRE_NETWORK",
          canceledAt: EX.at(12, 0),
          nextStep: null,
          customerActionExpected: "NONE",
          refund: {
            refundStatus: "PENDING",
            estimatedRefundCompletionBy: "2026-11-26T10:12:00.000Z",
            refundMethod: "ORIGINAL_PAYMENT_METHOD",
            refundAmount: "103.990000",
            refundCurrency: "USD",
          },
        },
      },
    },
  },
  errors: ["transfer.notFound", "transfer.stateInvalid", "customer.statusBlocking"],
});

/** PayoutMethodRequest (spec 2.9): the same request submit takes, reused for a payout repair. */
const PayoutMethodRequestSchema = z
  .strictObject({
    methodType: z.string().min(1).max(40).meta({ example: "BANK_TRANSFER" }),
    destinationIdentifier: z.string().min(1).max(64).optional(),
    payoutMethodId: z.string().min(1).max(64).optional(),
  })
  .meta({ id: "PayoutMethodRequest" });

export const repairPayout = defineContract({
  operationId: "repairPayout",
  method: "POST",
  path: "/v1/core/transfers/{transferId}/payout-repair",
  summary: "Give a new destination for a payout the payout bank rejected; it is resent in the next payout file",
  description:
    "Extension (docs/decisions.md): when the payout bank rejects the beneficiary's account (the transfer stays topay or reqpay), the customer supplies another destination: an existing payout method of the same beneficiary, or a new identifier (format-checked as at submit). 409 transfer.stateInvalid when no rejected payout waits for a repair.",
  tags,
  auth: "customer",
  gate: "transferCommit",
  idempotency: "required",
  params: transferId,
  body: z.strictObject({ payoutMethod: PayoutMethodRequestSchema }).meta({ id: "PayoutRepairRequest" }),
  success: {
    status: 202,
    description: "Accepted: the payout goes out again in the next payout file.",
    schema: z
      .object({
        transferId: z.string(),
        transferStatus: TransferStateSchema,
        payoutMethod: PayoutMethodMaskedSchema,
        payoutRepairedAt: Timestamp,
        nextStep: z.string().nullable(),
        customerActionExpected: z.string(),
      })
      .meta({ id: "PayoutRepairResponse" }),
  },
  examples: {
    request: { payoutMethod: { methodType: "BANK_TRANSFER", destinationIdentifier: "012180001234567897" } },
    response: {
      transferId: EX.transferId,
      transferStatus: "topay",
      payoutMethod: { ...PAYOUT_METHOD_EXAMPLE, destinationIdentifierMasked: "****7897" },
      payoutRepairedAt: EX.at(13, 0),
      nextStep: "CONTINUE",
      customerActionExpected: "WAIT",
    },
  },
  errors: [
    "transfer.notFound",
    "transfer.stateInvalid",
    "validation.payoutMethodConflict",
    "validation.destinationIdentifierMissing",
    "validation.payoutMethodTypeMismatch",
    "validation.methodNotAvailableForCorridor",
    "validation.fieldFormatInvalid",
    "validation.fieldInvalid",
    "beneficiary.stateInsufficient",
    "beneficiary.stateBlocking",
    "customer.statusInsufficient",
    "customer.statusBlocking",
    "subscription.spended",
  ],
});

const sandbox = <B extends z.ZodType>(operationId: string, path: string, summary: string, body: B, request: z.input<B>, response: unknown = PAID_EXAMPLE) =>
  defineContract({
    operationId,
    method: "POST",
    path,
    summary: `${summary} (sandbox only)`,
    tags: ["Sandbox"],
    auth: "customer",
    sandboxOnly: true,
    idempotency: "optional",
    params: transferId,
    body,
    success: { status: 200, description: "The transfer after the change.", schema: TransferDetailSchema },
    errors: ["transfer.notFound", "transfer.stateInvalid"],
    // request is checked against B at each call (its parameter type); TS cannot relate the two generics here.
    examples: { request: request as never, response },
  });

export const sandboxAdvance = sandbox(
  "sandboxAdvanceTransfer",
  "/v1/sandbox/transfers/{transferId}/advance",
  "Move a transfer along the payout network",
  z.strictObject({ to: z.enum(["topay", "reqpay", "paid"]) }),
  { to: "paid" },
);
export const sandboxNetworkCancellation = sandbox(
  "sandboxNetworkCancellation",
  "/v1/sandbox/transfers/{transferId}/network-cancellation",
  "Answer a pending network cancellation",
  z.strictObject({ outcome: z.enum(["NETWORK_CANCELLATION_SUCCESS", "NETWORK_ALREADY_PAID", "NETWORK_IN_PROGRESS_RETRY_ALLOWED"]) }),
  { outcome: "NETWORK_ALREADY_PAID" },
);
export const sandboxComplianceHold = sandbox(
  "sandboxComplianceHold",
  "/v1/sandbox/transfers/{transferId}/compliance-hold",
  "Put a transfer on compliance hold",
  z.strictObject({}),
  {},
  {
    ...PAID_EXAMPLE,
    transferStatus: "spended",
    transferStateChangedAt: EX.at(12, 5),
    nextStep: "CONTINUE",
    customerActionExpected: "WAIT",
    stateHistory: [...HISTORY.slice(0, 6), { state: "spended", transitionedAt: EX.at(12, 5), reasonCode: "TRF_COMPLIANCE_HOLD" }],
  },
);
export const sandboxComplianceRelease = sandbox(
  "sandboxComplianceRelease",
  "/v1/sandbox/transfers/{transferId}/compliance-release",
  "Release a compliance hold",
  z.strictObject({ resolution: z.enum(["RESTORE", "REJECT"]) }),
  { resolution: "RESTORE" },
  {
    ...PAID_EXAMPLE,
    transferStatus: "reqpay",
    transferStateChangedAt: EX.at(12, 8),
    nextStep: "CONTINUE",
    customerActionExpected: "WAIT",
    stateHistory: [
      ...HISTORY.slice(0, 6),
      { state: "spended", transitionedAt: EX.at(12, 5), reasonCode: "TRF_COMPLIANCE_HOLD" },
      { state: "reqpay", transitionedAt: EX.at(12, 8), reasonCode: "TRF_COMPLIANCE_RESTORED" },
    ],
  },
);
export const sandboxReview = sandbox(
  "sandboxReview",
  "/v1/sandbox/transfers/{transferId}/review",
  "Decide a transfer in onreview",
  z.strictObject({ decision: z.enum(["APPROVE", "REJECT"]) }),
  { decision: "APPROVE" },
  DETAIL_EXAMPLE,
);

export const sandboxCompleteFunding = defineContract({
  operationId: "sandboxCompleteFunding",
  method: "POST",
  path: "/v1/sandbox/funding-sessions/{fundingSessionId}/complete",
  summary: "Complete a funding session, as the hosted page does (sandbox only)",
  tags: ["Sandbox"],
  auth: "customer",
  sandboxOnly: true,
  idempotency: "optional",
  params: z.object({ fundingSessionId: z.string().min(1).max(64).meta({ description: "The funding session, from confirm.", example: EX.fundingSessionId }) }),
  body: z.strictObject({ outcome: z.enum(["SUCCEEDED", "FAILED"]) }).meta({ id: "SandboxFundingCompleteRequest" }),
  success: {
    status: 200,
    description: "The funding session's end.",
    schema: z
      .object({ fundingSessionId: z.string(), sessionState: z.string(), transferStatus: TransferStateSchema })
      .meta({ id: "SandboxFundingCompleteResponse" }),
  },
  examples: { request: { outcome: "SUCCEEDED" }, response: { fundingSessionId: EX.fundingSessionId, sessionState: "SUCCEEDED", transferStatus: "funded" } },
  errors: ["fundingSession.notFound", "funding.sessionExpired", "funding.sessionStateInvalid", "transfer.stateInvalid"],
});
