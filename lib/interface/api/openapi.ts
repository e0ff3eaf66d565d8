import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";
import type { Contract } from "@/lib/interface/http/contract";
import { allContracts } from "./contracts";
import { EX } from "./examples/ids";
import { errorResponses } from "./openapi-responses";
import { SIGNATURE_SCHEME, webhooksSection } from "./webhooks";

/** Tags in the order of a customer's journey (the reference's navigation follows it). */
const TAGS = [
  { name: "Auth", description: "Registration with a one-time code, login, token refresh and logout, password reset, device keys." },
  { name: "Profile and KYC", description: "The customer's profile (screened on submit) and the hosted KYC capture." },
  { name: "Beneficiaries", description: "People the customer sends to, screened before first use." },
  { name: "Quotes", description: "Signed quotes, the pre-payment disclosure and acceptance, which creates the transfer." },
  { name: "Transfers", description: "Submit, device-bound confirmation, funding, cancellation, refunds and status." },
  { name: "Events", description: "The customer's events, exactly as webhooks carry them, in sequence order: catch up after missed webhooks." },
  { name: "Webhooks", description: "Events POSTed to the partner's webhook URL, signed with Standard Webhooks." },
  { name: "Operations", description: "The quote-signing public keys and the service's liveness and readiness probes: no subscription key." },
  { name: "Sandbox", description: "Sandbox-only helpers (404 in production): drive providers, the payout network and the clock." },
];

const DESCRIPTION = `Auth API (/v1/auth) and Core API (/v1/core) for partner applications acting for their logged-in customers.

Every call sends \`Ocp-Apim-Subscription-Key\`; customer calls also send \`Authorization: Bearer <accessToken>\`. Every Core API POST needs an \`Idempotency-Key\` (a UUID per business action): a retry with the same key and body answers the original response with \`Idempotent-Replayed: true\`.

Errors always have the shape \`{ error: { code, message, hint, remediation, details }, correlationId }\`: branch on \`error.code\`. Request headers larger than 16 KiB in all are refused before any operation runs: 431 \`validation.headersTooLarge\` (\`details.maxBytes\`), and the connection is closed. 503 \`internal.unavailable\` and 500 \`server.unexpected\` are temporary: retry with the same Idempotency-Key after \`Retry-After\`.

Webhooks: ${SIGNATURE_SCHEME}`;

function operationOf(c: Contract): ZodOpenApiOperationObject {
  const header: Record<string, z.ZodType> = {
    "X-Correlation-Id": z
      .string()
      .optional()
      .meta({ description: "Echoed on the response; generated when absent (UUID v4 recommended).", example: EX.correlationId }),
  };
  if (c.idempotency === "required")
    header["Idempotency-Key"] = z.uuid().meta({ description: "Required: a UUID per business action.", example: EX.idempotencyKey });
  if (c.idempotency === "optional")
    header["Idempotency-Key"] = z
      .uuid()
      .optional()
      .meta({ description: "Optional: a UUID per action; a retry with the same key and body answers the original response.", example: EX.idempotencyKey });
  const security = c.auth === "none" ? [] : c.auth === "partner" ? [{ subscriptionKey: [] }] : [{ subscriptionKey: [], bearer: [] }];
  const ex = c.examples;
  // JSON unless the contract names another media type (the sandbox file rails' XML documents).
  const json = (schema: z.ZodType | undefined, example: unknown, media = "application/json") => ({
    [media]: { ...(schema ? { schema } : {}), ...(example !== undefined ? { example } : {}) },
  });
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
    ...(c.body ? { requestBody: { required: true, content: json(c.body, ex?.request, c.bodyMediaType) } } : {}),
    responses: {
      [String(c.success.status)]: {
        description: c.success.description,
        ...(c.success.schema ? { content: json(c.success.schema, ex?.response, c.successMediaType) } : {}),
      },
      ...Object.fromEntries(
        Object.entries(ex?.otherResponses ?? {}).map(([status, r]) => [status, { description: r.description, content: json(c.success.schema, r.example) }]),
      ),
      ...errorResponses(c),
    },
  };
}

/** Tags in TAGS order; a tag no entry names goes before Sandbox (a new capability, told by the test). */
function tagsOf(contracts: Contract[]) {
  const used = new Set([...contracts.flatMap((c) => c.tags), "Webhooks"]);
  const known = TAGS.filter((t) => used.has(t.name));
  const extra = [...used].filter((name) => !TAGS.some((t) => t.name === name)).map((name) => ({ name, description: `${name} operations.` }));
  const sandbox = known.findIndex((t) => t.name === "Sandbox");
  return sandbox < 0 ? [...known, ...extra] : [...known.slice(0, sandbox), ...extra, ...known.slice(sandbox)];
}

/** The OpenAPI 3.1 document of every implemented route, built from the same contracts the pipeline enforces. */
export function buildOpenApiDocument(baseUrl: string, contracts: Contract[] = allContracts) {
  const paths: ZodOpenApiPathsObject = {};
  for (const c of contracts) {
    const item = (paths[c.path] ??= {});
    (item as Record<string, ZodOpenApiOperationObject>)[c.method.toLowerCase()] = operationOf(c);
  }
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Remittance Partner API",
      version: "1.0.0",
      description: DESCRIPTION,
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
      contact: { name: "Partner support", email: "partners@example.com" },
    },
    servers: [{ url: baseUrl }],
    tags: tagsOf(contracts),
    components: {
      securitySchemes: {
        subscriptionKey: { type: "apiKey", in: "header", name: "Ocp-Apim-Subscription-Key", description: "Partner API key issued at onboarding." },
        bearer: { type: "http", scheme: "bearer", description: "Customer access token from /v1/auth/login." },
      },
    },
    paths,
    webhooks: webhooksSection(),
  });
}
