/**
 * Choosing the partner's verification key (spec 5.4: JWKS entries "kty RSA, kid, use sig, alg
 * RS256, n, e"; "the kid in the JWS header must match a JWKS entry"; RSA-2048 minimum).
 * The key is selected by kid here and only that entry is imported: handing jose the whole set
 * would let it try other keys when the kid is missing or duplicated.
 */
import { importRsaPublicKey } from "@/lib/platform/crypto/public-key-cache";
import { decodeBase64urlStrict } from "@/lib/platform/crypto/jose-strict/base64url";
import { signatureInvalid } from "./signature-invalid";

export const MIN_RSA_MODULUS_BITS = 2048;
/** Upper bound only to keep verification cost bounded; RSA-3072/4096 (recommended) fit easily. */
export const MAX_RSA_MODULUS_BITS = 16384;

/** Members that only a private JWK has. A JWKS carrying them means the partner leaked its key. */
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth"] as const;

/** A partner's published key set. Entries are checked at run time, so any object is accepted. */
export interface PartnerJwks {
  keys: readonly object[];
}

export interface RsaPublicJwk {
  kty: "RSA";
  n: string;
  e: string;
}

function bitLength(bytes: Uint8Array): number {
  let start = 0;
  while (start < bytes.length && bytes[start] === 0) start++;
  if (start === bytes.length) return 0;
  return (bytes.length - start - 1) * 8 + (32 - Math.clz32(bytes[start]!));
}

/** Public exponent: odd, at least 3 and at most 32 bits (65537 in practice). */
function exponentAcceptable(bytes: Uint8Array): boolean {
  if (bytes.length === 0 || bytes.length > 4) return false;
  let value = 0;
  for (const b of bytes) value = value * 256 + b;
  return value >= 3 && value % 2 === 1;
}

/** The JWKS entry for kid, checked as spec 5.4 requires, reduced to its public members. */
export function selectPartnerKey(jwks: unknown, kid: string): RsaPublicJwk {
  if (jwks === null || typeof jwks !== "object" || !Array.isArray((jwks as { keys?: unknown }).keys)) {
    throw signatureInvalid("jwksInvalid");
  }
  const entries = (jwks as { keys: unknown[] }).keys.filter(
    (entry): entry is Record<string, unknown> => entry !== null && typeof entry === "object" && (entry as { kid?: unknown }).kid === kid,
  );
  if (entries.length === 0) throw signatureInvalid("keyNotFound");
  // Two entries with one kid: which one the partner meant is unknowable, so neither is used.
  if (entries.length > 1) throw signatureInvalid("keyAmbiguous");
  const jwk = entries[0]!;

  if (jwk.kty !== "RSA") throw signatureInvalid("keyType");
  if (jwk.use !== undefined && jwk.use !== "sig") throw signatureInvalid("keyUse");
  if (jwk.alg !== undefined && jwk.alg !== "RS256") throw signatureInvalid("keyAlg");
  if (PRIVATE_MEMBERS.some((member) => jwk[member] !== undefined)) throw signatureInvalid("keyPrivate");
  if (typeof jwk.n !== "string" || typeof jwk.e !== "string") throw signatureInvalid("keyEncoding");
  const n = decodeBase64urlStrict(jwk.n);
  const e = decodeBase64urlStrict(jwk.e);
  if (n === undefined || e === undefined) throw signatureInvalid("keyEncoding");
  const bits = bitLength(n);
  if (bits < MIN_RSA_MODULUS_BITS || bits > MAX_RSA_MODULUS_BITS) throw signatureInvalid("keySize");
  if (!exponentAcceptable(e)) throw signatureInvalid("keyExponent");
  return { kty: "RSA", n: jwk.n, e: jwk.e };
}

/** Imports just the selected public key for RS256 verification. */
export async function importPartnerKey(jwk: RsaPublicJwk): Promise<CryptoKey> {
  try {
    return await importRsaPublicKey(jwk.n, jwk.e);
  } catch {
    throw signatureInvalid("keyImport");
  }
}
