/**
 * Strict splitting of a compact JWS (RFC 7515 section 7.1) before any cryptography. jose is a
 * general JOSE library: it accepts things our tokens must not have (lenient base64url, duplicate
 * header members resolved by JSON.parse, unencoded payloads via {"b64":false,"crit":["b64"]},
 * embedded or remote keys). Each rule here narrows the input to one spelling of one token, so
 * jose and we can never read it differently. What a header may hold is the caller's policy,
 * stated as data (partner quotes, spec 5.4; device assertions and registration proofs, spec 5.3).
 */
import { decodeBase64urlStrict } from "./base64url";
import { parseStrictJsonBytes, StrictJsonError } from "./strict-json";

/** Why a token was refused; quotes report it as details.failedCheck, devices fold it into "signature". */
export type CompactJwsFailure =
  | "tokenType"
  | "tokenSize"
  | "jsonSerialization"
  | "segmentCount"
  | "headerSize"
  | "headerEncoding"
  | "headerDuplicateMember"
  | "headerJson"
  | "headerAlg"
  | "headerForbiddenParameter"
  | "headerKid"
  | "headerTyp"
  | "signatureSize"
  | "signatureEncoding"
  | "payloadSize"
  | "payloadEncoding";

/** Safe to show a client: names the rule, never echoes token content. */
const MESSAGES: Record<CompactJwsFailure, string> = {
  tokenType: "The token must be a string.",
  tokenSize: "The token is too large.",
  jsonSerialization: "The token must use the compact serialization, not the JSON one.",
  segmentCount: "The token must have exactly three dot-separated segments.",
  headerSize: "The token header is too large.",
  headerEncoding: "The token header is not canonical unpadded base64url.",
  headerDuplicateMember: "The token header repeats a member.",
  headerJson: "The token header is not a strict JSON object.",
  headerAlg: "The token header alg is not allowed.",
  headerForbiddenParameter: "The token header has a member that is not allowed.",
  headerKid: "The token header kid is missing or invalid.",
  headerTyp: "The token header typ must be JWT.",
  signatureSize: "The token signature is too large.",
  signatureEncoding: "The token signature is not canonical unpadded base64url.",
  payloadSize: "The token payload is too large.",
  payloadEncoding: "The token payload is not canonical unpadded base64url.",
};

export class CompactJwsError extends Error {
  readonly reason: CompactJwsFailure;
  constructor(reason: CompactJwsFailure) {
    super(MESSAGES[reason]);
    this.name = "CompactJwsError";
    this.reason = reason;
  }
}

/** What a header may contain. Every string limit is in characters of the encoded segment. */
export interface CompactJwsPolicy {
  /** The only alg values accepted (exact spelling). */
  algorithms: readonly string[];
  /** Either the only members a header may have, or the members it must not have. */
  members: { allow: readonly string[] } | { deny: readonly string[] };
  kid: "required" | "optional";
  /** When present typ must be exactly "JWT"; "required" also refuses its absence. */
  typ: "required" | "optional";
  maxLength: { token: number; header: number; payload?: number; signature?: number; kid?: number };
}

export interface CompactJws {
  header: Readonly<Record<string, unknown>>;
  /** The header kid; always a non-empty string when the policy requires one. */
  kid: string | undefined;
  /** The decoded payload bytes; what they must be (JCS text, a JSON object) is the caller's rule. */
  payload: Uint8Array;
  signature: Uint8Array;
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The header segment as a strict JSON object, without any policy. */
export function decodeHeaderSegment(segment: string): Record<string, unknown> {
  const bytes = segment.length > 0 ? decodeBase64urlStrict(segment) : undefined;
  if (bytes === undefined) throw new CompactJwsError("headerEncoding");
  let header: unknown;
  try {
    header = parseStrictJsonBytes(bytes);
  } catch (error) {
    if (error instanceof StrictJsonError && error.reason === "duplicateMember") throw new CompactJwsError("headerDuplicateMember");
    throw new CompactJwsError("headerJson");
  }
  if (!isJsonObject(header)) throw new CompactJwsError("headerJson");
  return header;
}

function checkHeader(header: Record<string, unknown>, policy: CompactJwsPolicy): string | undefined {
  const has = (name: string) => Object.hasOwn(header, name);
  // RS256 only at v1: "none", HMAC (public key used as secret), RS512, PS256... refused.
  if (typeof header.alg !== "string" || !policy.algorithms.includes(header.alg)) throw new CompactJwsError("headerAlg");
  const { members } = policy;
  const refused = "allow" in members ? Object.keys(header).some((name) => !members.allow.includes(name)) : members.deny.some(has);
  if (refused) throw new CompactJwsError("headerForbiddenParameter");
  if (has("kid") || policy.kid === "required") {
    const { kid } = header;
    if (typeof kid !== "string" || kid.length === 0 || kid.length > (policy.maxLength.kid ?? Infinity)) throw new CompactJwsError("headerKid");
  }
  if ((has("typ") || policy.typ === "required") && header.typ !== "JWT") throw new CompactJwsError("headerTyp");
  return header.kid as string | undefined;
}

function decodeSegment(segment: string, maxLength: number | undefined, size: CompactJwsFailure, encoding: CompactJwsFailure): Uint8Array {
  if (segment.length > (maxLength ?? Infinity)) throw new CompactJwsError(size);
  const bytes = segment.length > 0 ? decodeBase64urlStrict(segment) : undefined;
  if (bytes === undefined) throw new CompactJwsError(encoding);
  return bytes;
}

/**
 * Splits and checks a compact JWS against policy: size limits, exactly three non-empty segments of
 * canonical base64url, a strict JSON header object that obeys the policy. Throws CompactJwsError.
 * The signature is only decoded here; jose verifies it with the one key the caller chose.
 */
export function splitCompactJws(token: unknown, policy: CompactJwsPolicy): CompactJws {
  if (typeof token !== "string") throw new CompactJwsError("tokenType");
  if (token.length > policy.maxLength.token) throw new CompactJwsError("tokenSize");
  // JWS JSON serialization (RFC 7515 section 7.2) is not the format of any token we accept.
  if (token.trimStart().startsWith("{")) throw new CompactJwsError("jsonSerialization");
  const segments = token.split(".");
  if (segments.length !== 3) throw new CompactJwsError("segmentCount");
  const [headerSegment, payloadSegment, signatureSegment] = segments as [string, string, string];

  if (headerSegment.length > policy.maxLength.header) throw new CompactJwsError("headerSize");
  const header = decodeHeaderSegment(headerSegment);
  const kid = checkHeader(header, policy);
  const signature = decodeSegment(signatureSegment, policy.maxLength.signature, "signatureSize", "signatureEncoding");
  const payload = decodeSegment(payloadSegment, policy.maxLength.payload, "payloadSize", "payloadEncoding");
  return { header, kid, payload, signature };
}

/** The payload read as a strict JSON object; undefined when it is anything else. */
export function payloadObject(jws: CompactJws): Record<string, unknown> | undefined {
  try {
    const value = parseStrictJsonBytes(jws.payload);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
