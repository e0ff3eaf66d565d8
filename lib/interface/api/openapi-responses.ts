import { z } from "zod";
import { statusesOf, type ErrorCode } from "@/lib/platform/errors";
import type { Contract } from "@/lib/interface/http/contract";
import { errorExample } from "./examples/errors";
import { ErrorEnvelopeSchema } from "./schemas";

const STATUS_TEXT: Record<number, string> = {
  400: "Bad request",
  401: "Unauthorised",
  403: "Forbidden",
  404: "Not found",
  405: "Method not allowed",
  409: "Conflict",
  410: "Gone",
  412: "Precondition failed",
  413: "Body too large",
  415: "Unsupported media type",
  431: "Request headers too large",
  422: "Unprocessable",
  429: "Too many requests",
  500: "Server error",
  502: "Bad gateway",
  503: "Temporarily unavailable",
};

const RetryAfter = z.object({
  "Retry-After": z.string().meta({ description: "Seconds to wait before retrying.", example: "5" }),
});

/**
 * Errors every operation can answer with, from the pipeline (lib/interface/http/endpoint.ts), on top of its
 * contract's own: 500 for the unexpected, 503 while the database cannot be reached
 * (lib/platform/unavailable.ts, mapped by toDomainError), the key and token checks, body and parameter validation, the
 * Idempotency-Key. 429 only where the contract lists it: the throttled Auth routes and confirm.
 */
function commonErrors(c: Contract): ErrorCode[] {
  const codes: ErrorCode[] = ["server.unexpected", "internal.unavailable"];
  if (c.auth !== "none") codes.push("auth.subscriptionKeyInvalid");
  if (c.auth === "customer") codes.push("auth.tokenInvalid", "auth.tokenExpired", "auth.tokenRevoked", "subscription.closed");
  if (c.body) codes.push("validation.bodyMalformed", "validation.contentTypeUnsupported", "validation.bodyTooLarge");
  if (c.body || c.query || c.params) codes.push("validation.fieldInvalid", "validation.fieldFormatInvalid", "validation.fieldMissing");
  if (c.idempotency === "required") codes.push("idempotency.conflict", "validation.fieldMissing");
  if (c.idempotency === "optional") codes.push("idempotency.conflict", "validation.fieldInvalid");
  if (c.sandboxOnly) codes.push("route.notFound");
  return codes;
}

/**
 * The statuses a code answers with on this operation. Two codes have two (decisions 8):
 * quote.expired is 410 on reads and 422 at create and accept; quote.invalid is 409 when the quote
 * was already used (a read of an accepted quote's disclosure, a reused partner quote or a second
 * acceptance) and 422 otherwise.
 */
function statusesFor(code: ErrorCode, c: Contract): readonly number[] {
  const all = statusesOf(code);
  if (all.length === 1) return all;
  if (c.method === "GET") return [all[1]];
  return code === "quote.expired" ? [all[0]] : all;
}

/** The field a validation example points at: the first of the body, else of the query or path. */
function exampleField(c: Contract): string {
  const body = c.examples?.request;
  if (body && typeof body === "object") return Object.keys(body)[0] ?? "body";
  const shape = (s: unknown) => (s instanceof z.ZodObject ? Object.keys(s.shape) : []);
  return shape(c.query)[0] ?? shape(c.params)[0] ?? "body";
}

/** One response per error status, listing its codes, with one example envelope per code. */
export function errorResponses(c: Contract) {
  const byStatus = new Map<number, Set<ErrorCode>>();
  for (const code of [...c.errors, ...commonErrors(c)]) {
    for (const status of statusesFor(code, c)) {
      if (!byStatus.has(status)) byStatus.set(status, new Set());
      byStatus.get(status)!.add(code);
    }
  }
  const field = exampleField(c);
  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, set]) => {
        const codes = [...set].sort();
        const examples = Object.fromEntries(codes.map((code) => [code, { summary: code, value: errorExample(code, field) }]));
        return [
          String(status),
          {
            description: `${STATUS_TEXT[status] ?? "Error"}: ${codes.map((code) => `\`${code}\``).join(", ")}`,
            ...(status === 429 || status === 503 ? { headers: RetryAfter } : {}),
            content: { "application/json": { schema: ErrorEnvelopeSchema, examples } },
          },
        ];
      }),
  );
}
