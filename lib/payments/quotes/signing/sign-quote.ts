/**
 * Signing a quote claim set the spec 5.4 way: RS256 compact JWS, header {alg, kid, typ: "JWT"},
 * payload = the JCS canonical bytes, signing input base64url(header) "." base64url(payload).
 * Used for the service's own signedQuote (decisions 6) and, in tests, to play the partner.
 * Signed with Node's crypto on a KeyObject (the service's is imported once per process,
 * service-keys.ts): nothing is parsed or imported per quote, and the RSA work runs on libuv's
 * thread pool, off the event loop.
 */
import { KeyObject, sign } from "node:crypto";
import { DomainError } from "@/lib/platform/errors";
import { encodeBase64url } from "@/lib/platform/crypto/jose-strict/base64url";
import { canonicalJsonBytes, JcsError } from "./jcs";
import { readQuoteClaims, type PartnerQuoteClaims } from "./quote-claims";

function signerFailure(failedCheck: string): DomainError {
  return new DomainError("server.unexpected", { message: "The quote could not be signed.", details: { failedCheck } });
}

/** RS256's minimum modulus (RFC 7518 3.3), as jose enforced it. */
const MIN_MODULUS_BITS = 2048;

/** The key as a private RSA KeyObject (a WebCrypto key, in tests, is converted, not re-parsed). */
function rsaPrivateKey(key: CryptoKey | KeyObject): KeyObject {
  const k = key instanceof KeyObject ? key : KeyObject.from(key);
  if (k.type !== "private" || k.asymmetricKeyType !== "rsa") throw signerFailure("signingKey");
  if ((k.asymmetricKeyDetails?.modulusLength ?? 0) < MIN_MODULUS_BITS) throw signerFailure("signingKey");
  return k;
}

/** RSASSA-PKCS1-v1_5 with SHA-256 (RS256) of the ASCII signing input, on the thread pool. */
const rs256 = (input: string, key: KeyObject) =>
  new Promise<Buffer>((resolve, reject) => sign("sha256", Buffer.from(input, "ascii"), key, (err, signature) => (err ? reject(err) : resolve(signature))));

/**
 * Compact JWS over claims. The claims are checked first (the same rules the verifier applies,
 * minus those that need "now"), so the service never signs a quote a verifier must refuse.
 */
export async function signQuoteClaims(claims: PartnerQuoteClaims, privateKey: CryptoKey | KeyObject, kid: string): Promise<string> {
  if (typeof kid !== "string" || kid.length === 0) throw signerFailure("signerKid");
  const key = rsaPrivateKey(privateKey);
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
  return `${signingInput}.${(await rs256(signingInput, key)).toString("base64url")}`;
}
