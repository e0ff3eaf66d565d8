/**
 * Checks of the raw compact JWS done before jose sees it (spec 5.4 "Format" and "Header" rows).
 * jose is a general JOSE library: it accepts things a partner quote must not have (unencoded
 * payloads via {"b64":false,"crit":["b64"]}, lenient base64url, duplicate header members resolved
 * by JSON.parse, any key of a set when kid is missing). Each rule here narrows the input to
 * exactly the one form spec 5.4 defines, so there is a single way to spell a valid quote.
 */
import { decodeBase64urlStrict } from "./base64url";
import { checkCanonicalJsonBytes } from "./jcs";
import { signatureInvalid } from "./signature-invalid";
import { parseStrictJsonBytes, StrictJsonError } from "./strict-json";

/** A 2048-4096-bit quote is about 2 kB; these limits leave ample room and bound parsing work. */
export const MAX_TOKEN_LENGTH = 16 * 1024;
export const MAX_HEADER_SEGMENT_LENGTH = 2 * 1024;

/**
 * Header parameters refused outright. Spec 5.4 lists crit, x5c, x5t, x5u, jku, jwk; x5t#S256 is
 * the SHA-256 sibling of x5t, and b64 (RFC 7797) would change what the signature covers.
 */
export const FORBIDDEN_HEADER_PARAMETERS = ["crit", "x5c", "x5t", "x5t#S256", "x5u", "jku", "jwk", "b64"] as const;

export interface CompactJwsParts {
  kid: string;
  /** The payload's JSON value, already known to be JCS-canonical. */
  payload: unknown;
}

function parseHeader(segment: string): Record<string, unknown> {
  if (segment.length > MAX_HEADER_SEGMENT_LENGTH) throw signatureInvalid("headerSize");
  const bytes = segment.length > 0 ? decodeBase64urlStrict(segment) : undefined;
  if (bytes === undefined) throw signatureInvalid("headerEncoding");
  let header: unknown;
  try {
    header = parseStrictJsonBytes(bytes);
  } catch (error) {
    if (error instanceof StrictJsonError && error.reason === "duplicateMember") {
      throw signatureInvalid("headerDuplicateMember");
    }
    throw signatureInvalid("headerJson");
  }
  if (header === null || typeof header !== "object" || Array.isArray(header)) throw signatureInvalid("headerJson");
  return header as Record<string, unknown>;
}

function checkHeader(header: Record<string, unknown>): string {
  const has = (name: string) => Object.prototype.hasOwnProperty.call(header, name);
  // RS256 only at v1 (spec 5.4); "none", HMAC (public key used as secret), RS512, PS256... refused.
  if (header.alg !== "RS256") throw signatureInvalid("headerAlg");
  if (FORBIDDEN_HEADER_PARAMETERS.some(has)) throw signatureInvalid("headerForbiddenParameter");
  if (typeof header.kid !== "string" || header.kid.length === 0) throw signatureInvalid("headerKid");
  // typ is recommended, not required; when present it must say JWT (exact spelling).
  if (has("typ") && header.typ !== "JWT") throw signatureInvalid("headerTyp");
  return header.kid;
}

const PAYLOAD_FAILURE = {
  utf8: "payloadUtf8",
  syntax: "payloadJson",
  duplicateMember: "payloadDuplicateMember",
  loneSurrogate: "payloadLoneSurrogate",
  notCanonical: "payloadNotCanonical",
} as const;

/**
 * Validates a compact JWS's form, header and payload encoding; returns the kid to look up and the
 * parsed canonical payload. The signature segment is only checked for encoding: jose verifies it.
 */
export function preflightCompactJws(token: unknown): CompactJwsParts {
  if (typeof token !== "string") throw signatureInvalid("tokenType");
  if (token.length > MAX_TOKEN_LENGTH) throw signatureInvalid("tokenSize");
  // JWS JSON serialization (RFC 7515 section 7.2) is not the spec's format.
  if (token.trimStart().startsWith("{")) throw signatureInvalid("jsonSerialization");
  const segments = token.split(".");
  if (segments.length !== 3) throw signatureInvalid("segmentCount");
  const [headerSegment, payloadSegment, signatureSegment] = segments as [string, string, string];

  const kid = checkHeader(parseHeader(headerSegment));

  const signature = signatureSegment.length > 0 ? decodeBase64urlStrict(signatureSegment) : undefined;
  if (signature === undefined) throw signatureInvalid("signatureEncoding");

  const payloadBytes = payloadSegment.length > 0 ? decodeBase64urlStrict(payloadSegment) : undefined;
  if (payloadBytes === undefined) throw signatureInvalid("payloadEncoding");
  // Spec 5.4: the signed bytes are the JCS form. Anything else is a different document.
  const canonical = checkCanonicalJsonBytes(payloadBytes);
  if (!canonical.ok) throw signatureInvalid(PAYLOAD_FAILURE[canonical.reason]);

  return { kid, payload: canonical.value };
}
