import type { z } from "zod";
import type { GateName } from "@/lib/identity";
import type { ErrorCode } from "@/lib/platform/errors";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
/** none: public; partner: subscription key; customer: subscription key and bearer token. */
export type AuthLevel = "none" | "partner" | "customer";

/**
 * One operation of the public API: what the pipeline enforces and what the OpenAPI document
 * says, from the same object, so the two cannot drift apart.
 */
export interface Contract<
  B extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  P extends z.ZodType | undefined = z.ZodType | undefined,
  A extends AuthLevel = AuthLevel,
  S extends z.ZodType | undefined = z.ZodType | undefined,
> {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI path template, e.g. /v1/core/transfers/{transferId}. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  auth: A;
  body?: B;
  query?: Q;
  params?: P;
  /** The success answer; its schema also types the handler's reply (lib/interface/http/endpoint.ts Reply). */
  success: { status: number; description: string; schema?: S; headers?: Record<string, string> };
  /** Error codes this operation can answer with (documented per status in OpenAPI). */
  errors: readonly ErrorCode[];
  /**
   * Idempotency-Key handling: required on every Core API POST (decisions section 8); optional on
   * the sandbox's simulation POSTs (honoured when sent, so a retry answers the original response;
   * scripts that never retry may omit it).
   */
  idempotency?: "required" | "optional" | "none";
  /** Customer-status gate of spec 3.5 (lib/identity/customers/gating.ts); customer routes only. */
  gate?: GateName;
  /**
   * Media type of the request body and of the success answer when not JSON: application/xml for
   * the ISO 20022 file rails (the body is then the document's text, its schema a z.string()).
   */
  bodyMediaType?: "application/xml";
  successMediaType?: "application/xml";
  /** Only served in APP_MODE=sandbox (decisions section 1); 404 otherwise. */
  sandboxOnly?: boolean;
  /**
   * Examples for the API reference: the request body and the success answer (error answers'
   * examples come from lib/interface/api/examples/errors.ts). test/unit/api/openapi-examples.test.ts
   * requires them and checks them against the schemas.
   */
  examples?: ContractExamples<B>;
}

export interface ContractExamples<B extends z.ZodType | undefined = z.ZodType | undefined> {
  request?: B extends z.ZodType ? z.input<B> : never;
  response?: unknown;
  /** Other success statuses the operation answers with (e.g. 202 beside 200), with their example. */
  otherResponses?: Record<number, { description: string; example: unknown }>;
}

export function defineContract<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
  A extends AuthLevel = AuthLevel,
  S extends z.ZodType | undefined = undefined,
>(c: Contract<B, Q, P, A, S>): Contract<B, Q, P, A, S> {
  return c;
}
