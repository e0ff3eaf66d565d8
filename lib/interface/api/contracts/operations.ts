import { z } from "zod";
import { defineContract } from "@/lib/interface/http/contract";

/**
 * Routes outside /v1 that the OpenAPI document lists too: the published
 * quote-signing keys and the probes of a supervisor or load balancer. None needs a subscription
 * key. Their handlers (app/.well-known/jwks.json, app/livez, app/readyz) answer by hand, outside
 * the partner pipeline: these contracts only document them.
 */
const tags = ["Operations"];

const Jwk = z
  .object({
    kty: z.literal("RSA"),
    n: z.string().meta({ description: "Modulus, base64url (2048 bits or more)." }),
    e: z.string().meta({ description: "Public exponent, base64url." }),
    kid: z.string().meta({ description: "Key id: the `kid` of a signedQuote's JWS header." }),
    use: z.literal("sig"),
    alg: z.literal("RS256"),
  })
  .meta({ id: "PublicJwk" });

export const jwks = defineContract({
  operationId: "serviceJwks",
  method: "GET",
  path: "/.well-known/jwks.json",
  summary: "Quote-signing public keys",
  description:
    "The public keys that verify a quote's `signedQuote` (RS256 compact JWS, spec 5.4): the current key and, during a rotation, the previous one while quotes it signed can still be valid. Cacheable for 5 minutes; fetch again on an unknown `kid`.",
  tags,
  auth: "none",
  success: {
    status: 200,
    description: "The JWK Set.",
    schema: z.object({ keys: z.array(Jwk) }).meta({ id: "JwkSet" }),
    headers: { "Cache-Control": "public, max-age=300" },
  },
  examples: {
    response: {
      keys: [
        {
          kty: "RSA",
          n: "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECP",
          e: "AQAB",
          kid: "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs",
          use: "sig",
          alg: "RS256",
        },
      ],
    },
  },
  errors: [],
});

export const livez = defineContract({
  operationId: "livez",
  method: "GET",
  path: "/livez",
  summary: "Liveness probe",
  description: "The process serves requests. Cheap (no database), never cached, not logged per call. For a supervisor's liveness probe.",
  tags,
  auth: "none",
  success: { status: 200, description: "The process serves.", schema: z.object({ status: z.literal("ok") }).meta({ id: "LivenessResponse" }) },
  examples: { response: { status: "ok" } },
  errors: [],
});

const Check = z.enum(["ok", "failed", "not used"]);

export const readyz = defineContract({
  operationId: "readyz",
  method: "GET",
  path: "/readyz",
  summary: "Readiness probe",
  description:
    "The service can do its work: the database answers, every migration of this build is applied, and the sanctions lists and reference rates the configured providers need are loaded (`not used` when the provider needs none). Otherwise 503 `internal.unavailable` naming what is missing, its `details.checks` as here. A few small queries, never cached, not logged per call. For a load balancer's readiness probe.",
  tags,
  auth: "none",
  success: {
    status: 200,
    description: "Ready.",
    schema: z
      .object({
        status: z.literal("ready"),
        checks: z.object({ database: Check, migrations: Check, sanctionsLists: Check, referenceRates: Check }),
      })
      .meta({ id: "ReadinessResponse" }),
  },
  examples: { response: { status: "ready", checks: { database: "ok", migrations: "ok", sanctionsLists: "ok", referenceRates: "not used" } } },
  errors: ["internal.unavailable"],
});
