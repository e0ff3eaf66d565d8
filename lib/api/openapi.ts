import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";
import { httpStatusOf, type ErrorCode } from "@/lib/errors";
import type { Contract } from "@/lib/http/contract";
import { allContracts } from "./contracts";
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
  422: "Unprocessable",
  429: "Too many requests",
  500: "Server error",
};

/** Errors every operation of an auth level can return, on top of its own. */
function commonErrors(c: Contract): ErrorCode[] {
  const codes: ErrorCode[] = ["server.unexpected"];
  if (c.auth !== "none") codes.push("auth.subscriptionKeyInvalid");
  if (c.auth === "customer") codes.push("auth.tokenInvalid", "auth.tokenExpired", "auth.tokenRevoked", "subscription.closed");
  if (c.body) codes.push("validation.bodyMalformed", "validation.contentTypeUnsupported", "validation.bodyTooLarge");
  if (c.body || c.query || c.params) codes.push("validation.fieldInvalid", "validation.fieldFormatInvalid", "validation.fieldMissing");
  if (c.idempotency === "required") codes.push("idempotency.conflict", "validation.fieldMissing");
  return codes;
}

function errorResponses(c: Contract) {
  const byStatus = new Map<number, Set<string>>();
  for (const code of [...c.errors, ...commonErrors(c)]) {
    const status = httpStatusOf(code);
    if (!byStatus.has(status)) byStatus.set(status, new Set());
    byStatus.get(status)!.add(code);
  }
  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, codes]) => [
        String(status),
        {
          description: `${STATUS_TEXT[status] ?? "Error"}: ${[...codes].sort().join(", ")}`,
          content: { "application/json": { schema: ErrorEnvelopeSchema } },
        },
      ]),
  );
}

function operationOf(c: Contract): ZodOpenApiOperationObject {
  const header: Record<string, z.ZodType> = {
    "X-Correlation-Id": z.string().optional().meta({ description: "Echoed on the response; generated when absent (UUID v4 recommended)." }),
  };
  if (c.idempotency === "required") header["Idempotency-Key"] = z.uuid().meta({ description: "Required: a UUID per business action." });
  const security = c.auth === "none" ? [] : c.auth === "partner" ? [{ subscriptionKey: [] }] : [{ subscriptionKey: [], bearer: [] }];
  return {
    operationId: c.operationId,
    summary: c.summary,
    description: c.description ?? c.summary,
    tags: c.tags,
    security,
    requestParams: {
      header: z.object(header),
      ...(c.params ? { path: c.params as z.ZodObject } : {}),
      ...(c.query ? { query: c.query as z.ZodObject } : {}),
    },
    ...(c.body ? { requestBody: { required: true, content: { [c.bodyMediaType ?? "application/json"]: { schema: c.body } } } } : {}),
    responses: {
      [String(c.success.status)]: {
        description: c.success.description,
        ...(c.success.schema ? { content: { [c.successMediaType ?? "application/json"]: { schema: c.success.schema } } } : {}),
      },
      ...errorResponses(c),
    },
  };
}

/** The OpenAPI 3.1 document of every implemented route, built from the same contracts the pipeline enforces. */
export function buildOpenApiDocument(baseUrl: string, contracts: Contract[] = allContracts) {
  const paths: ZodOpenApiPathsObject = {};
  for (const c of contracts) {
    const item = (paths[c.path] ??= {});
    (item as Record<string, ZodOpenApiOperationObject>)[c.method.toLowerCase()] = operationOf(c);
  }
  const tags = [...new Set(contracts.flatMap((c) => c.tags))].map((name) => ({ name, description: `${name} operations` }));
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Remittance Partner API",
      version: "1.0.0",
      description: "Auth API (/v1/auth) and Core API (/v1/core) for partner applications acting for their logged-in customers.",
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
      contact: { name: "Partner support", email: "partners@example.com" },
    },
    servers: [{ url: baseUrl }],
    tags,
    components: {
      securitySchemes: {
        subscriptionKey: { type: "apiKey", in: "header", name: "Ocp-Apim-Subscription-Key", description: "Partner API key issued at onboarding." },
        bearer: { type: "http", scheme: "bearer", description: "Customer access token from /v1/auth/login." },
      },
    },
    paths,
  });
}
