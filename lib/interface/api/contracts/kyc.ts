import { z } from "zod";
import { defineContract } from "@/lib/interface/http/contract";
import { KYC_SESSION_STATES, KYC_OUTCOMES, KYC_SESSION_PURPOSES } from "@/lib/identity";
import { Timestamp } from "../schemas";
import { EX } from "../examples/ids";

const tags = ["Profile and KYC"];

const KycSessionStateSchema = z.enum(KYC_SESSION_STATES).meta({ id: "KycSessionState" });
const PurposeSchema = z.enum(KYC_SESSION_PURPOSES).meta({ id: "KycSessionPurpose", description: "Chosen by the service from the KYC state." });

export const ClosureCallbackSchema = z
  .object({
    postMessage: z.object({
      type: z.enum(["kyc.closed", "funding.closed"]),
      targetOrigin: z.string().nullable().meta({ description: "The partner's registered origin; never *." }),
    }),
    deepLink: z.string().nullable().meta({ description: "Opened with the session id and state in its query when the partner registered a URL scheme." }),
  })
  .meta({ id: "ClosureCallback" });

export const createKycSession = defineContract({
  operationId: "createKycSession",
  method: "POST",
  path: "/v1/core/kyc-sessions",
  summary: "Open (or resume) a KYC session and get the hosted capture URL",
  description: "Empty body. An open session within its lifetime is returned again with a fresh 30-minute URL. Accepts X-Idempotency-Key as an alias.",
  tags,
  auth: "customer",
  gate: "onboarding",
  idempotency: "required",
  success: {
    status: 200,
    description: "The session and its webview URL.",
    schema: z
      .object({
        kycSessionId: z.string(),
        purpose: PurposeSchema,
        sessionState: KycSessionStateSchema,
        webviewUrl: z.string().meta({ description: "Opaque, bound to the session, 30-minute lifetime." }),
        expiresAt: Timestamp.meta({ description: "When webviewUrl stops working." }),
        sessionExpiresAt: Timestamp.meta({ description: "The session's absolute end (24 hours)." }),
        closureCallback: ClosureCallbackSchema,
      })
      .meta({ id: "KycSessionCreateResponse" }),
  },
  examples: {
    response: {
      kycSessionId: EX.kycSessionId,
      purpose: "NEW",
      sessionState: "CREATED",
      webviewUrl: "https://remit.example.com/webviews/kyc/wv_Q2x9mR4tV8bN1cK7pL3zY6dF",
      expiresAt: EX.at(32),
      sessionExpiresAt: "2026-11-22T10:02:00.000Z",
      closureCallback: { postMessage: { type: "kyc.closed", targetOrigin: "https://app.example.com" }, deepLink: "partnerapp://remit/kyc-closed" },
    },
  },
  errors: ["customer.statusInsufficient", "customer.statusBlocking", "kyc.notRequired"],
});

export const readKycSession = defineContract({
  operationId: "readKycSession",
  method: "GET",
  path: "/v1/core/kyc-sessions/{kycSessionId}",
  summary: "Read a KYC session's lifecycle",
  description: "Session lifecycle only: KYC outcomes are read from kycStatus on the profile.",
  tags,
  auth: "customer",
  gate: "onboarding",
  params: z.object({ kycSessionId: z.string().min(1).max(64).meta({ description: "The session, from its creation.", example: EX.kycSessionId }) }),
  success: {
    status: 200,
    description: "The session.",
    schema: z
      .object({
        kycSessionId: z.string(),
        purpose: PurposeSchema,
        sessionState: KycSessionStateSchema,
        openedAt: Timestamp,
        closedAt: Timestamp.nullable(),
        expiresAt: Timestamp,
      })
      .meta({ id: "KycSessionReadResponse" }),
  },
  examples: {
    response: {
      kycSessionId: EX.kycSessionId,
      purpose: "NEW",
      sessionState: "COMPLETED",
      openedAt: EX.at(2),
      closedAt: EX.at(6),
      expiresAt: "2026-11-22T10:02:00.000Z",
    },
  },
  errors: ["kycSession.notFound"],
});

export const sandboxCompleteKyc = defineContract({
  operationId: "sandboxCompleteKycSession",
  method: "POST",
  path: "/v1/sandbox/kyc-sessions/{kycSessionId}/complete",
  summary: "Decide a KYC session, as the hosted page's sandbox buttons do (sandbox only)",
  tags: ["Sandbox"],
  auth: "customer",
  sandboxOnly: true,
  idempotency: "optional",
  params: z.object({ kycSessionId: z.string().min(1).max(64).meta({ description: "The session, from its creation.", example: EX.kycSessionId }) }),
  body: z.strictObject({ outcome: z.enum(KYC_OUTCOMES) }).meta({ id: "SandboxKycCompleteRequest" }),
  success: {
    status: 200,
    description: "The session is closed and the customer's statuses moved.",
    schema: z.object({ kycSessionId: z.string(), sessionState: KycSessionStateSchema, outcome: z.string() }).meta({ id: "SandboxKycCompleteResponse" }),
  },
  examples: { request: { outcome: "APPROVED" }, response: { kycSessionId: EX.kycSessionId, sessionState: "COMPLETED", outcome: "APPROVED" } },
  errors: ["kycSession.notFound", "kyc.sessionExpired", "kyc.sessionStateInvalid"],
});
