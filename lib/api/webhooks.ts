import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from "zod-openapi";
import type { EventType } from "@/lib/events/emit";
import { BeneficiaryStateSchema } from "./contracts/beneficiaries";
import { CustomerStatusSchema, KycStatusSchema } from "./contracts/profile";
import { TransferStateSchema } from "./contracts/transfers";
import { EX } from "./examples/ids";
import { Timestamp } from "./schemas";

/**
 * The webhooks section of the OpenAPI document: one entry per event type of lib/events/emit.ts,
 * each the envelope it sends (decisions 9) with its data, an example, and the Standard Webhooks
 * headers that sign it (lib/webhooks/deliver-job.ts).
 */
export const SIGNATURE_SCHEME = [
  "Each event is POSTed as JSON to the partner's webhook URL and signed with Standard Webhooks:",
  "`webhook-id` is the eventId, `webhook-timestamp` the Unix time of signing, and `webhook-signature`",
  "one or more space-separated `v1,<base64>` values, each an HMAC-SHA256 with the secret (the bytes",
  "after `whsec_`, base64-decoded) of `{webhook-id}.{webhook-timestamp}.{raw body}`. During a secret",
  "rotation two signatures are sent: accept the request when either verifies. Reject a timestamp",
  "more than 5 minutes from your clock. Answer 2xx to acknowledge; anything else is retried",
  "(5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), 429 and 503 honour Retry-After, 410 disables the",
  "endpoint. Delivery is at least once, in `sequence` order per subscription: deduplicate on eventId.",
].join(" ");

const envelope = <T extends z.ZodType>(type: EventType, id: string, data: T) =>
  z
    .object({
      eventId: z.string().meta({ description: "Unique; also the webhook-id header. Deduplicate on it." }),
      eventType: z.literal(type),
      occurredAt: Timestamp,
      subscriptionId: z.string().meta({ description: "The customer's subscription with the partner." }),
      sequence: z.number().int().min(1).meta({ description: "Increases by one per event of the subscription: process in this order." }),
      data,
    })
    .meta({ id });

export const CustomerStatusChangedEvent = envelope(
  "customer.status.changed",
  "CustomerStatusChangedEvent",
  z.object({
    status: CustomerStatusSchema,
    kycStatus: KycStatusSchema,
    previousStatus: CustomerStatusSchema,
    previousKycStatus: KycStatusSchema,
    remediationHint: z.string().nullable().meta({ description: "What the customer should do next (spec 7 remediation hints), or null." }),
  }),
);

export const TransferStateChangedEvent = envelope(
  "transfer.state.changed",
  "TransferStateChangedEvent",
  z.object({
    transferId: z.string(),
    state: TransferStateSchema,
    previousState: TransferStateSchema.nullable().meta({ description: "null for the first state (registered)." }),
    reasonCode: z.string().meta({ description: "Why the transfer moved (TRF_* reason codes of the state history)." }),
  }),
);

export const BeneficiaryStateChangedEvent = envelope(
  "beneficiary.state.changed",
  "BeneficiaryStateChangedEvent",
  z.object({ beneficiaryId: z.string(), state: BeneficiaryStateSchema, previousState: BeneficiaryStateSchema }),
);

const base = (sequence: number, minute: number) => ({ subscriptionId: EX.subscriptionId, sequence, occurredAt: EX.at(minute) });

export const WEBHOOK_EXAMPLES: Record<EventType, unknown> = {
  "customer.status.changed": {
    eventId: EX.eventId,
    eventType: "customer.status.changed",
    ...base(2, 0),
    data: { status: "VALID", kycStatus: "COMPLETED", previousStatus: "PENDING", previousKycStatus: "IN_PROGRESS", remediationHint: null },
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
};

const WEBHOOKS: { type: EventType; schema: z.ZodType; summary: string; description: string }[] = [
  {
    type: "customer.status.changed",
    schema: CustomerStatusChangedEvent,
    summary: "Customer status or KYC status changed",
    description: "Sent when the customer's status or KYC status changes (profile screening, KYC outcome, operator decision).",
  },
  {
    type: "beneficiary.state.changed",
    schema: BeneficiaryStateChangedEvent,
    summary: "Beneficiary state changed",
    description: "Sent when screening or an operator moves a beneficiary, and when it is archived.",
  },
  {
    type: "transfer.state.changed",
    schema: TransferStateChangedEvent,
    summary: "Transfer state changed",
    description: "Sent on every transfer state change, from registered to a terminal state, with the reason code.",
  },
];

const headers = z.object({
  "webhook-id": z.string().meta({ description: "The eventId.", example: EX.eventId }),
  "webhook-timestamp": z.string().meta({ description: "Unix seconds of signing.", example: "1795255200" }),
  "webhook-signature": z.string().meta({
    description: "Space-separated `v1,<base64 HMAC-SHA256>` signatures (two during a secret rotation).",
    example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
  }),
});

export function webhooksSection(): ZodOpenApiPathsObject {
  return Object.fromEntries(
    WEBHOOKS.map(({ type, schema, summary, description }): [string, { post: ZodOpenApiOperationObject }] => [
      type,
      {
        post: {
          operationId: `webhook.${type}`.replace(/\./g, "_"),
          summary,
          description: `${description}\n\n${SIGNATURE_SCHEME}`,
          tags: ["Webhooks"],
          security: [],
          requestParams: { header: headers },
          requestBody: { required: true, content: { "application/json": { schema, example: WEBHOOK_EXAMPLES[type] } } },
          responses: {
            "200": { description: "Any 2xx acknowledges the event." },
            "410": { description: "Gone: the endpoint is retired; deliveries stop until an operator re-enables it." },
          },
        },
      },
    ]),
  );
}
