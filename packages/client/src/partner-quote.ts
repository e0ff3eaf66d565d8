/**
 * Partner quote signing (spec 5.4), done on the partner's backend: the claims canonicalised with
 * RFC 8785 JCS (`canonicalize`), signed RS256 as a compact JWS whose header is exactly
 * {alg: "RS256", kid, typ: "JWT"}: kid required (it picks the key in the partner's JWKS), typ the
 * recommended JWT, and none of the forbidden crit, x5c, x5t, x5u, jku, jwk. The service refuses a
 * payload that is not byte-for-byte its own JCS form, which is why JSON.stringify will not do.
 */
import canonicalize from "canonicalize";
import { CompactSign, importJWK, type JWK } from "jose";

/** The claim set of spec 5.4: all required, snake_case, money as decimal strings. */
export interface PartnerQuoteClaims {
  quote_signature_v1: "v1";
  quote_id: string;
  jti: string;
  partner_id: string;
  partner_quote_seq: number;
  subscription_id: string;
  send_amount: string;
  send_currency: string;
  receive_amount: string;
  receive_currency: string;
  beneficiary_country: string;
  beneficiary_currency: string;
  corridor: string;
  corridor_type: string;
  fx_rate: string;
  partner_fee: string;
  principal_fee: string;
  total_consumer_cost: string;
  /** Epoch seconds. */
  iat: number;
  /** Epoch seconds. */
  exp: number;
  /** RFC 3339 UTC, the instant of iat. */
  issued_at: string;
  /** RFC 3339 UTC, the instant of exp. */
  expires_at: string;
}

const INTEGER_CLAIMS = ["partner_quote_seq", "iat", "exp"] as const;
const STRING_CLAIMS = [
  "quote_id",
  "jti",
  "partner_id",
  "subscription_id",
  "send_amount",
  "send_currency",
  "receive_amount",
  "receive_currency",
  "beneficiary_country",
  "beneficiary_currency",
  "corridor",
  "corridor_type",
  "fx_rate",
  "partner_fee",
  "principal_fee",
  "total_consumer_cost",
  "issued_at",
  "expires_at",
] as const;

/** Bits of an RSA JWK's modulus (base64url `n`, leading zero bytes not counted). */
function modulusBits(n: string): number {
  const bytes = Buffer.from(n, "base64url");
  let i = 0;
  while (i < bytes.length && bytes[i] === 0) i++;
  return (bytes.length - i) * 8;
}

function checkClaims(claims: PartnerQuoteClaims): void {
  if (claims.quote_signature_v1 !== "v1") throw new TypeError('signPartnerQuote: quote_signature_v1 must be "v1"');
  for (const name of STRING_CLAIMS) {
    if (typeof claims[name] !== "string" || claims[name].length === 0) throw new TypeError(`signPartnerQuote: ${name} must be a non-empty string`);
  }
  for (const name of INTEGER_CLAIMS) {
    if (!Number.isSafeInteger(claims[name])) throw new TypeError(`signPartnerQuote: ${name} must be an integer`);
  }
  const at = (s: string) => Math.floor(Date.parse(s) / 1000);
  if (at(claims.issued_at) !== claims.iat || at(claims.expires_at) !== claims.exp) {
    throw new TypeError("signPartnerQuote: issued_at/expires_at must be the instants of iat/exp");
  }
}

/**
 * Signs `claims` with the partner's private RSA JWK (its `kid` must be the kid published in the
 * partner's JWKS). Returns the compact JWS to send as `partnerQuote`.
 */
export async function signPartnerQuote(claims: PartnerQuoteClaims, privateJwk: JWK): Promise<string> {
  if (privateJwk.kty !== "RSA" || typeof privateJwk.d !== "string" || typeof privateJwk.n !== "string") {
    throw new TypeError("signPartnerQuote: privateJwk must be a private RSA JWK");
  }
  if (typeof privateJwk.kid !== "string" || privateJwk.kid.length === 0) throw new TypeError("signPartnerQuote: privateJwk needs the kid of the published key");
  if (modulusBits(privateJwk.n) < 2048) throw new TypeError("signPartnerQuote: RSA-2048 at least (RSA-3072 recommended)");
  checkClaims(claims);
  const canonical = canonicalize(claims);
  if (typeof canonical !== "string") throw new TypeError("signPartnerQuote: claims are not JSON data");
  const key = await importJWK(privateJwk, "RS256");
  return new CompactSign(new TextEncoder().encode(canonical)).setProtectedHeader({ alg: "RS256", kid: privateJwk.kid, typ: "JWT" }).sign(key);
}
