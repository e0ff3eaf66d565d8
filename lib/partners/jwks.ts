import { base64url } from "jose";
import { z } from "zod";
import { config } from "@/lib/platform/config";
import { DomainError } from "@/lib/platform/errors";
import { fetchDocument } from "@/lib/platform/fetch-document";
import { assertDeliverableUrl } from "@/lib/partners/webhooks/url-policy";

const RsaKey = z
  .object({
    kty: z.literal("RSA"),
    kid: z.string().min(1),
    n: z.string().min(1),
    e: z.string().min(1),
    use: z.literal("sig").optional(),
    alg: z.literal("RS256").optional(),
  })
  .passthrough();
const Jwks = z.object({ keys: z.array(RsaKey).min(1).max(20) });

const invalid = (message: string) =>
  new DomainError("validation.fieldInvalid", { message, details: { issues: [{ field: "jwks", code: "validation.fieldInvalid", message }] } });

/**
 * A partner JWKS (spec 5.4): RSA signing keys with a kid, 2048 bits or more, no private members.
 * Given inline (JSON) or as an https URL fetched once and stored.
 */
export async function parsePartnerJwks(source: { json?: string; url?: string }): Promise<{ keys: Record<string, unknown>[] }> {
  let raw: unknown;
  if (source.url) {
    try {
      await assertDeliverableUrl(source.url, config().sandbox || config().WEBHOOK_ALLOW_PRIVATE);
      const body = await fetchDocument(source.url, { maxBytes: 64 * 1024, signal: AbortSignal.timeout(5000), redirect: "error" });
      raw = JSON.parse(body.toString("utf8"));
    } catch (err) {
      throw invalid(`Could not load the JWKS URL: ${err instanceof Error ? err.message : "failed"}.`);
    }
  } else {
    try {
      raw = JSON.parse(source.json ?? "");
    } catch {
      throw invalid("The JWKS is not valid JSON.");
    }
  }
  const parsed = Jwks.safeParse(raw);
  if (!parsed.success) throw invalid(`Not a JWKS of RSA signing keys: ${parsed.error.issues[0]?.message ?? "invalid"}.`);
  for (const key of parsed.data.keys) {
    if (["d", "p", "q", "dp", "dq", "qi"].some((m) => m in key)) throw invalid(`Key ${key.kid} contains private key material.`);
    const n = base64url.decode(key.n);
    if (n.length * 8 - Math.clz32(n[0] ?? 0) + 24 < 2048) throw invalid(`Key ${key.kid} is shorter than 2048 bits.`);
  }
  return { keys: parsed.data.keys.map((k) => ({ kty: "RSA", kid: k.kid, n: k.n, e: k.e, use: "sig", alg: "RS256" })) };
}
