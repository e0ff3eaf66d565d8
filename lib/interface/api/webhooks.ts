import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from "zod-openapi";
import type { EventType } from "@/lib/partners";
import {
  BeneficiaryStateChangedEventSchema,
  ClaimStatusChangedEventSchema,
  CustomerStatusChangedEventSchema,
  EVENT_EXAMPLES,
  PayoutRepairedEventSchema,
  PayoutRepairRequiredEventSchema,
  RefundCompletedEventSchema,
  RefundFailedEventSchema,
  TransferStateChangedEventSchema,
} from "./contracts/events";
import { EX } from "./examples/ids";

/**
 * The webhooks section of the OpenAPI document: one entry per event type of lib/partners/events/emit.ts,
 * each the envelope it sends (decisions 9; the schemas the events API returns, contracts/events.ts)
 * with an example, and the Standard Webhooks headers that sign it (lib/partners/webhooks/deliver-job.ts).
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

const WEBHOOKS: { type: EventType; schema: z.ZodType; summary: string; description: string }[] = [
  {
    type: "customer.status.changed",
    schema: CustomerStatusChangedEventSchema,
    summary: "Customer status or KYC status changed",
    description: "Sent when the customer's status or KYC status changes (profile screening, KYC outcome, operator decision).",
  },
  {
    type: "beneficiary.state.changed",
    schema: BeneficiaryStateChangedEventSchema,
    summary: "Beneficiary state changed",
    description: "Sent when screening or an operator moves a beneficiary, and when it is archived.",
  },
  {
    type: "transfer.state.changed",
    schema: TransferStateChangedEventSchema,
    summary: "Transfer state changed",
    description: "Sent on every transfer state change, from registered to a terminal state, with the reason code.",
  },
  {
    type: "refund.completed",
    schema: RefundCompletedEventSchema,
    summary: "Refund completed",
    description:
      "Sent when the refund of a cancelled or rejected transfer has been paid back to the original payment method (the transfer's refund.refundStatus is then COMPLETED).",
  },
  {
    type: "refund.failed",
    schema: RefundFailedEventSchema,
    summary: "Refund failed",
    description:
      "Sent when a refund attempt failed (refund.refundStatus FAILED). The money is still owed to the customer: operations retry, and refund.completed follows once paid.",
  },
  {
    type: "claim.status.changed",
    schema: ClaimStatusChangedEventSchema,
    summary: "Error claim status changed",
    description:
      "Sent when a customer's error claim is opened (POST .../claims), taken into investigation, and resolved with its outcome (NO_ERROR, REFUND with the amount, RESEND), each by an operator.",
  },
  {
    type: "payout.repair.required",
    schema: PayoutRepairRequiredEventSchema,
    summary: "Payout needs a new destination",
    description:
      "Sent when the payout bank rejects the beneficiary's account (a pain.002 rejection a new destination can fix). The transfer keeps its state; its customerActionExpected is REPAIR_PAYOUT until POST /v1/core/transfers/{transferId}/payout-repair (or an operator) gives a new destination.",
  },
  {
    type: "payout.repaired",
    schema: PayoutRepairedEventSchema,
    summary: "Payout repaired",
    description: "Sent when a rejected payout was given a new destination (by the customer's app or an operator); the next payout file resends it.",
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
          requestBody: { required: true, content: { "application/json": { schema, example: EVENT_EXAMPLES[type] } } },
          responses: {
            "200": { description: "Any 2xx acknowledges the event." },
            "410": { description: "Gone: the endpoint is retired; deliveries stop until an operator re-enables it." },
          },
        },
      },
    ]),
  );
}
