/**
 * Signing a quote claim set the spec 5.4 way: RS256 compact JWS, header {alg, kid, typ: "JWT"},
 * payload = the JCS canonical bytes, signing input base64url(header) "." base64url(payload).
 * Used for the service's own signedQuote (decisions 6) and, in tests, to play the partner.
 */
import type { KeyObject } from "node:crypto";
import { CompactSign } from "jose";
import { DomainError } from "@/lib/errors";
import { encodeBase64url } from "@/lib/crypto/jose-strict/base64url";
import { canonicalJsonBytes, JcsError } from "./jcs";
import { readQuoteClaims, type PartnerQuoteClaims } from "./quote-claims";

function signerFailure(failedCheck: string): DomainError {
  return new DomainError("server.unexpected", { message: "The quote could not be signed.", details: { failedCheck } });
}

/**
 * Compact JWS over claims. The claims are checked first (the same rules the verifier applies,
 * minus those that need "now"), so the service never signs a quote a verifier must refuse.
 */
export async function signQuoteClaims(claims: PartnerQuoteClaims, privateKey: CryptoKey | KeyObject, kid: string): Promise<string> {
  if (typeof kid !== "string" || kid.length === 0) throw signerFailure("signerKid");
  const checked = readQuoteClaims(claims);
  const header = { alg: "RS256", kid, typ: "JWT" } as const;

  let headerBytes: Uint8Array;
  let payloadBytes: Uint8Array;
  try {
    headerBytes = canonicalJsonBytes(header);
    payloadBytes = canonicalJsonBytes(checked);
  } catch (error) {
    if (error instanceof JcsError) {
      throw new DomainError("quote.invalid", { details: { failedCheck: "claimsNotCanonicalisable" } });
    }
    throw error;
  }
  const signingInput = `${encodeBase64url(headerBytes)}.${encodeBase64url(payloadBytes)}`;

  const jws = await new CompactSign(payloadBytes).setProtectedHeader(header).sign(privateKey);
  // jose serialises the header itself; make sure what it signed is exactly our signing input.
  if (!jws.startsWith(`${signingInput}.`)) throw signerFailure("signingInput");
  return jws;
}
