import { z } from "zod";
import { BENEFICIARY_STATES, CLAIM_OUTCOMES, CLAIM_STATUSES, CLAIM_TYPES, VERIFICATION_TIERS, TRANSFER_STATES } from "@/lib/payments";
import { CUSTOMER_STATUSES, KYC_STATUSES } from "@/lib/identity";
import { EVENT_TYPES, type EventType } from "@/lib/partners";
import { defineContract } from "@/lib/interface/http/contract";
import { commaSeparated, Timestamp } from "../schemas";
import { PayoutRejectionSchema } from "./transfers";
import { EX } from "../examples/ids";

const tags = ["Events"];

/** The members every event has (decisions section 9): the webhook body and the events API item alike. */
const envelope = {
  eventId: z.string().meta({ example: "evt_0k2x8f3q9w1m4n7p5r6s" }),
  occurredAt: Timestamp,
  subscriptionId: z.string().meta({ example: "sub_3f9k2m8q1w4x7n5p6r0s" }),
  sequence: z.number().int().min(1).meta({ description: "Increases by one with each event of the subscription: order and gaps are visible.", example: 7 }),
};

export const CustomerStatusChangedEventSchema = z
  .object({
    ...envelope,
    eventType: z.literal("customer.status.changed"),
    data: z.object({
      status: z.enum(CUSTOMER_STATUSES),
      kycStatus: z.enum(KYC_STATUSES),
      previousStatus: z.enum(CUSTOMER_STATUSES),
      previousKycStatus: z.enum(KYC_STATUSES),
      remediationHint: z.string().nullable(),
      tier: z
        .union(VERIFICATION_TIERS.map((t) => z.literal(t)))
        .meta({ description: "Verification tier (GET /v1/core/limits): 2 once source-of-funds evidence was approved." }),
      previousTier: z.union(VERIFICATION_TIERS.map((t) => z.literal(t))),
    }),
  })
  .meta({ id: "CustomerStatusChangedEvent", description: "The customer's status, KYC status or verification tier changed." });

export const TransferStateChangedEventSchema = z
  .object({
    ...envelope,
    eventType: z.literal("transfer.state.changed"),
    data: z.object({
      transferId: z.string(),
      state: z.enum(TRANSFER_STATES),
      previousState: z.enum(TRANSFER_STATES).nullable().meta({ description: "null when the transfer was created (registered)." }),
      reasonCode: z.string().meta({ example: "TRF_INITIATION_QUOTE_ACCEPTED" }),
      rejectionReason: PayoutRejectionSchema.optional(),
    }),
  })
  .meta({ id: "TransferStateChangedEvent", description: "A transfer moved to another state." });

export const BeneficiaryStateChangedEventSchema = z
  .object({
    ...envelope,
    eventType: z.literal("beneficiary.state.changed"),
    data: z.object({ beneficiaryId: z.string(), state: z.enum(BENEFICIARY_STATES), previousState: z.enum(BENEFICIARY_STATES) }),
  })
  .meta({ id: "BeneficiaryStateChangedEvent", description: "A beneficiary moved to another state." });

const refundData = {
  transferId: z.string(),
  refundMethod: z.enum(["ORIGINAL_PAYMENT_METHOD"]),
};

export const RefundCompletedEventSchema = z
  .object({
    ...envelope,
    eventType: z.literal("refund.completed"),
    data: z.object({ ...refundData, refundStatus: z.literal("COMPLETED"), refundCompletedAt: Timestamp }),
  })
  .meta({ id: "RefundCompletedEvent", description: "The refund of a cancelled or rejected transfer was paid back to the customer's original payment method." });

export const RefundFailedEventSchema = z
  .object({
    ...envelope,
    eventType: z.literal("refund.failed"),
    data: z.object({ ...refundData, refundStatus: z.literal("FAILED") }),
  })
  .meta({
    id: "RefundFailedEvent",
    description: "The refund of a transfer failed. The money is still owed: operations retry it, and a later refund.completed follows.",
  });

export const ClaimStatusChangedEventSchema = z
  .object({
    ...envelope,
    eventType: z.literal("claim.status.changed"),
    data: z.object({
      claimId: z.string(),
      transferId: z.string(),
      type: z.enum(CLAIM_TYPES),
      status: z.enum(CLAIM_STATUSES),
      previousStatus: z.enum(CLAIM_STATUSES).nullable().meta({ description: "null when the claim was opened." }),
      dueBy: Timestamp,
      outcome: z.enum(CLAIM_OUTCOMES).optional().meta({ description: "When RESOLVED." }),
      resolutionAmount: z.string().nullable().optional().meta({ description: "When RESOLVED with REFUND: the amount given back." }),
      resolutionCurrency: z.string().nullable().optional(),
    }),
  })
  .meta({ id: "ClaimStatusChangedEvent", description: "An error claim was opened, is being investigated, or was resolved." });

export const PayoutRepairRequiredEventSchema = z
  .object({
    ...envelope,
    eventType: z.literal("payout.repair.required"),
    data: z.object({
      transferId: z.string(),
      attempt: z.number().int().min(1).meta({ description: "The payout attempt the bank rejected (1 for the first file, n+1 after n repairs)." }),
      rejectionReason: PayoutRejectionSchema,
      customerActionExpected: z.literal("REPAIR_PAYOUT").meta({ description: "As the transfer's detail now says until the repair." }),
    }),
  })
  .meta({
    id: "PayoutRepairRequiredEvent",
    description:
      "The payout bank rejected the beneficiary's account (AC01, AC04, BE01...): the transfer stays with the network (its state does not change) and waits for a new destination, POST /v1/core/transfers/{transferId}/payout-repair, or an operator's refund.",
  });

export const PayoutRepairedEventSchema = z
  .object({
    ...envelope,
    eventType: z.literal("payout.repaired"),
    data: z.object({
      transferId: z.string(),
      attempt: z.number().int().min(1).meta({ description: "The rejected attempt now repaired; the next payout file carries attempt + 1." }),
      payoutMethodId: z.string().meta({ description: "The new destination (the customer's or an operator's)." }),
      customerActionExpected: z.literal("WAIT"),
    }),
  })
  .meta({ id: "PayoutRepairedEvent", description: "A rejected payout was given a new destination: nothing more is expected of the customer." });

export const EventSchema = z
  .discriminatedUnion("eventType", [
    CustomerStatusChangedEventSchema,
    TransferStateChangedEventSchema,
    BeneficiaryStateChangedEventSchema,
    RefundCompletedEventSchema,
    RefundFailedEventSchema,
    ClaimStatusChangedEventSchema,
    PayoutRepairRequiredEventSchema,
    PayoutRepairedEventSchema,
  ])
  .meta({ id: "Event", description: "Exactly the body a webhook delivery carries (Standard Webhooks signed)." });

const base = (sequence: number, minute: number) => ({ subscriptionId: EX.subscriptionId, sequence, occurredAt: EX.at(minute) });

/** One event of each type, from the journey (the webhook bodies and the events API items). */
export const EVENT_EXAMPLES: Record<EventType, unknown> = {
  "customer.status.changed": {
    eventId: EX.eventId,
    eventType: "customer.status.changed",
    ...base(2, 0),
    data: {
      status: "VALID",
      kycStatus: "COMPLETED",
      previousStatus: "PENDING",
      previousKycStatus: "IN_PROGRESS",
      remediationHint: null,
      tier: 1,
      previousTier: 1,
    },
  },
  "beneficiary.state.changed": {
    eventId: "evt_9c4k7m2q5d8x1v3b6n0p7r9t",
    eventType: "beneficiary.state.changed",
    ...base(3, 0),
    data: { beneficiaryId: EX.beneficiaryId, state: "VALID", previousState: "PENDING" },
  },
  "transfer.state.changed": {
    eventId: "evt_5m1k8q3d6x9c2v7b4n0p5r8t",
    eventType: "transfer.state.changed",
    ...base(9, 12),
    data: { transferId: EX.transferId, state: "paid", previousState: "reqpay", reasonCode: "TRF_PAID" },
  },
  "refund.completed": {
    eventId: "evt_2r7k4m9q1d6x3c8v5b0n2p4t",
    eventType: "refund.completed",
    ...base(14, 40),
    data: { transferId: EX.transferId, refundMethod: "ORIGINAL_PAYMENT_METHOD", refundStatus: "COMPLETED", refundCompletedAt: EX.at(40) },
  },
  "refund.failed": {
    eventId: "evt_8t3k6m1q4d9x2c7v0b5n8p1r",
    eventType: "refund.failed",
    ...base(13, 30),
    data: { transferId: EX.transferId, refundMethod: "ORIGINAL_PAYMENT_METHOD", refundStatus: "FAILED" },
  },
  "claim.status.changed": {
    eventId: "evt_6c1k9m4q2d7x5v8b3n0p6r1t",
    eventType: "claim.status.changed",
    ...base(15, 50),
    data: {
      claimId: "clm_4k8m2q7x1c5v3b6n0p9r2t7w",
      transferId: EX.transferId,
      type: "NOT_RECEIVED",
      status: "RESOLVED",
      previousStatus: "INVESTIGATING",
      dueBy: "2027-02-19T10:30:00.000Z",
      outcome: "REFUND",
      resolutionAmount: "103.990000",
      resolutionCurrency: "USD",
    },
  },
  "payout.repair.required": {
    eventId: "evt_1p9k3m6q8d2x4c7v5b0n3r6t",
    eventType: "payout.repair.required",
    ...base(10, 55),
    data: {
      transferId: EX.transferId,
      attempt: 1,
      rejectionReason: { code: "PAYOUT_ACCOUNT_CLOSED", isoReasonCode: "AC04", description: "Account closed" },
      customerActionExpected: "REPAIR_PAYOUT",
    },
  },
  "payout.repaired": {
    eventId: "evt_7w2k5m8q1d4x6c9v3b0n5r8t",
    eventType: "payout.repaired",
    ...base(11, 58),
    data: { transferId: EX.transferId, attempt: 1, payoutMethodId: EX.payoutMethodId, customerActionExpected: "WAIT" },
  },
};

export const listEvents = defineContract({
  operationId: "listEvents",
  method: "GET",
  path: "/v1/core/events",
  summary: "List the customer's events in sequence order (catch up after missed webhooks)",
  description:
    "The events of this subscription, oldest first, exactly as webhooks carry them. Pass the last sequence you processed as `after` " +
    "(or the previous page's nextCursor) to read only what came next. Events are kept at least 30 days.",
  tags,
  auth: "customer",
  gate: "eventRead",
  query: z.object({
    type: commaSeparated(EVENT_TYPES, "Comma-separated event types.").optional().meta({ description: "Comma-separated event types; all types when absent." }),
    createdSince: z.iso.datetime({ offset: true }).optional().meta({ description: "Only events that occurred at or after this instant." }),
    after: z
      .string()
      .regex(/^\d{1,15}$/, "A sequence number.")
      .transform(Number)
      .optional()
      .meta({ description: "Only events with a greater sequence: the last sequence processed, or the previous page's nextCursor." }),
    limit: z.coerce.number().int().min(1).max(200).default(50).meta({ description: "Page size, 1 to 200." }),
  }),
  success: {
    status: 200,
    description: "A page, in sequence order.",
    schema: z
      .object({
        items: z.array(EventSchema),
        nextCursor: z.string().nullable().meta({ description: "Pass as `after` for the next page; null on the last page." }),
      })
      .meta({ id: "EventListResponse" }),
  },
  examples: {
    response: {
      items: [EVENT_EXAMPLES["customer.status.changed"], EVENT_EXAMPLES["beneficiary.state.changed"], EVENT_EXAMPLES["transfer.state.changed"]],
      nextCursor: null,
    },
  },
  errors: ["customer.statusBlocking"],
});

export const readEvent = defineContract({
  operationId: "readEvent",
  method: "GET",
  path: "/v1/core/events/{eventId}",
  summary: "Read one event (the webhook body, by its webhook-id)",
  tags,
  auth: "customer",
  gate: "eventRead",
  params: z.object({
    eventId: z.string().min(1).max(64).meta({ description: "The event: its eventId, also the webhook-id header of its delivery.", example: EX.eventId }),
  }),
  success: { status: 200, description: "The event.", schema: EventSchema },
  examples: { response: EVENT_EXAMPLES["customer.status.changed"] },
  errors: ["event.notFound", "customer.statusBlocking"],
});
