import { z } from "zod";
import { defineContract } from "@/lib/interface/http/contract";
import { MONITORING_MODES } from "@/lib/compliance";
import { MAX_RETURN_ORIGINS } from "@/lib/platform/webviews/origins";
import { Timestamp } from "../schemas";
import { EX } from "../examples/ids";

const tags = ["Sandbox"];

const JwksSchema = z.object({ keys: z.array(z.record(z.string(), z.unknown())).max(20) }).meta({ id: "Jwks" });

export const putPartner = defineContract({
  operationId: "sandboxPutPartner",
  method: "PUT",
  path: "/v1/sandbox/partner",
  summary: "Configure the calling partner (sandbox only)",
  tags,
  auth: "partner",
  sandboxOnly: true,
  body: z
    .strictObject({
      jwks: JwksSchema.optional(),
      pricingMode: z.enum(["SERVICE_PRICED", "PARTNER_SIGNED"]).optional(),
      webhookUrl: z.string().url().max(2048).nullable().optional(),
      returnOrigins: z
        // Each origin is checked by lib/platform/webviews/origins.ts (one rule for the console and this endpoint).
        .array(z.string().max(253))
        .max(MAX_RETURN_ORIGINS)
        .optional()
        .meta({
          description:
            "Origins allowed to frame the hosted webviews and to receive their postMessage (the first is the target). Exact origins only: https://host[:port], lower case, no path or wildcard; http only for localhost and 127.0.0.1 in sandbox.",
          example: ["https://app.example.com"],
        }),
      deepLinkBase: z
        .string()
        .regex(/^[a-z][a-z0-9+.-]*:\/\/\S*$/)
        .max(200)
        .nullable()
        .optional()
        .meta({ example: "partnerapp://remit" }),
      monitoring: z.enum(MONITORING_MODES).optional().meta({
        description:
          "Transaction monitoring for this partner's transfers: `shadow` (the sandbox default: evaluated and recorded, never changes a transfer, so integration tests stay deterministic) or `enforce` (as in production: a transfer the rules hold goes `onreview` with reason TRF_CHECK_REVIEW, or `rejected` with TRF_CHECK_FAILED). The review rules of decisions section 7 act in both.",
        example: "enforce",
      }),
      rotateWebhookSecret: z.boolean().optional().meta({
        description:
          "true replaces the webhook secret; the new one is returned in webhookSecret. The previous secret keeps signing deliveries (a second `v1,` signature) until previousWebhookSecretValidUntil (24 h by default), so receivers can switch without losing a delivery. Needs a webhook URL.",
      }),
    })
    .meta({ id: "SandboxPartnerRequest" }),
  success: {
    status: 200,
    description: "The partner's settings.",
    schema: z
      .object({
        partnerId: z.string(),
        pricingMode: z.string(),
        jwks: JwksSchema,
        webhookUrl: z.string().nullable(),
        webhookSecret: z.string().nullable().meta({ description: "Standard Webhooks secret (whsec_...), present when a webhook URL is set." }),
        previousWebhookSecretValidUntil: Timestamp.nullable().meta({
          description: "After a rotation: until when deliveries are also signed with the previous secret (null when none is).",
        }),
        returnOrigins: z.array(z.string()),
        deepLinkBase: z.string().nullable(),
        monitoring: z.enum(MONITORING_MODES).meta({ description: "The partner's transaction-monitoring mode (its own, or the service's default)." }),
      })
      .meta({ id: "SandboxPartnerSettings" }),
  },
  examples: {
    request: {
      webhookUrl: "https://partner.example.com/webhooks/remit",
      returnOrigins: ["https://app.example.com"],
      deepLinkBase: "partnerapp://remit",
      monitoring: "enforce",
      rotateWebhookSecret: true,
    },
    response: {
      partnerId: EX.partnerId,
      pricingMode: "SERVICE_PRICED",
      jwks: { keys: [] },
      webhookUrl: "https://partner.example.com/webhooks/remit",
      webhookSecret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      previousWebhookSecretValidUntil: "2026-11-22T10:00:00.000Z",
      returnOrigins: ["https://app.example.com"],
      deepLinkBase: "partnerapp://remit",
      monitoring: "enforce",
    },
  },
  errors: ["auth.subscriptionKeyInvalid", "validation.fieldInvalid", "validation.fieldFormatInvalid"],
});

export const otpOutbox = defineContract({
  operationId: "sandboxOtpOutbox",
  method: "GET",
  path: "/v1/sandbox/otp",
  summary: "Latest one-time code sent to an identifier (sandbox only)",
  tags,
  auth: "partner",
  sandboxOnly: true,
  query: z.object({
    identifier: z.string().min(1).max(320).meta({ description: "The email address or phone number the code was sent to.", example: "ana.garcia@example.com" }),
  }),
  success: {
    status: 200,
    description: "The latest message.",
    schema: z.object({ identifier: z.string(), purpose: z.string(), otp: z.string().nullable(), createdAt: Timestamp }).meta({ id: "SandboxOtpMessage" }),
  },
  examples: { response: { identifier: "ana.garcia@example.com", purpose: "REGISTRATION", otp: "482913", createdAt: EX.at(0) } },
  errors: ["auth.subscriptionKeyInvalid", "auth.identifierInvalid", "otp.notFound"],
});

export const advanceClock = defineContract({
  operationId: "sandboxAdvanceClock",
  method: "POST",
  path: "/v1/sandbox/clock",
  summary: "Move the service clock forward (sandbox with SANDBOX_CLOCK_CONTROL only)",
  description: "For testing expiries and lockouts without waiting. Affects the whole process.",
  tags,
  auth: "partner",
  sandboxOnly: true,
  idempotency: "optional",
  body: z
    .strictObject({
      advanceSeconds: z
        .number()
        .int()
        .min(0)
        .max(90 * 86400),
    })
    .meta({ id: "SandboxClockRequest" }),
  success: { status: 200, description: "The new time.", schema: z.object({ now: Timestamp, offsetSeconds: z.number() }).meta({ id: "SandboxClock" }) },
  examples: { request: { advanceSeconds: 3600 }, response: { now: "2026-11-21T11:00:00.000Z", offsetSeconds: 3600 } },
  errors: ["auth.subscriptionKeyInvalid", "route.notFound"],
});
