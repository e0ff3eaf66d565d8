import { DomainError } from "@/lib/platform/errors";

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

export function errorResponse(err: DomainError, correlationId: string): Response {
  const headers: Record<string, string> = { "x-correlation-id": correlationId };
  if (err.retryAfterSeconds !== undefined) headers["retry-after"] = String(Math.max(1, Math.ceil(err.retryAfterSeconds)));
  // err.status already holds the code's alternative status where it has one (lib/platform/errors.ts).
  return jsonResponse(err.status, JSON.stringify(envelopeOf(err, correlationId)), headers);
}

export { unexpected } from "@/lib/platform/errors";
