import { DomainError } from "@/lib/errors";

/** The error envelope of spec section 7 / decisions section 8. */
export interface ErrorEnvelope {
  error: { code: string; message: string; hint: string | null; remediation: string | null; details: Record<string, unknown> | null };
  correlationId: string;
}

export function envelopeOf(err: DomainError, correlationId: string): ErrorEnvelope {
  return {
    error: {
      code: err.code,
      message: err.message,
      hint: err.hint ?? null,
      remediation: err.remediation ?? null,
      details: err.details ?? null,
    },
    correlationId,
  };
}

export function jsonResponse(status: number, body: string | null, headers: Record<string, string> = {}): Response {
  const h = new Headers(headers);
  if (body !== null) h.set("content-type", "application/json; charset=utf-8");
  if (!h.has("cache-control")) h.set("cache-control", "no-store");
  return new Response(status === 204 ? null : body, { status, headers: h });
}

/** A document answer (the sandbox file rails' ISO 20022 XML); errors stay JSON envelopes. */
export function xmlResponse(status: number, body: string, headers: Record<string, string> = {}): Response {
  const h = new Headers(headers);
  h.set("content-type", "application/xml; charset=utf-8");
  if (!h.has("cache-control")) h.set("cache-control", "no-store");
  return new Response(body, { status, headers: h });
}

/**
 * The HTTP status of an error answer. The errors table gives each code its status; the one code
 * whose status depends on what failed is decided here, so the domain never names a status:
 * quote.invalid is 422, but 409 when the quote (or its quote_id / jti) was already used
 * (decisions 8: "quote.invalid (reuse)").
 */
const REUSE_CHECKS = new Set(["reuse", "alreadyAccepted"]);

export function statusOf(err: DomainError): number {
  if (err.code === "quote.invalid" && REUSE_CHECKS.has(String(err.details?.failedCheck))) return 409;
  return err.status;
}

export function errorResponse(err: DomainError, correlationId: string): Response {
  const headers: Record<string, string> = { "x-correlation-id": correlationId };
  if (err.retryAfterSeconds !== undefined) headers["retry-after"] = String(Math.max(1, Math.ceil(err.retryAfterSeconds)));
  return jsonResponse(statusOf(err), JSON.stringify(envelopeOf(err, correlationId)), headers);
}

export { unexpected } from "@/lib/errors";
