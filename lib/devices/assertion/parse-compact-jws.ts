/**
 * Structural checks of a device assertion before any cryptography (spec 5.3): compact
 * serialization only, canonical base64url, size limits, a strict header and a JSON-object
 * payload. Everything here is cheap and rejects what a signature library might interpret
 * differently from us.
 */
import { decodeUtf8Strict, parseJsonStrict } from "./strict-json";

/** Upper bounds well above an RS256 assertion's real size (header ~110, signature 342-683 chars). */
export const JWS_LIMITS = { total: 8192, header: 1024, payload: 4096, signature: 1024, kid: 256 } as const;

/**
 * The only header members a v1 assertion may carry. An allow-list, not a deny-list: besides the
 * known-dangerous ones (crit, jwk, jku, x5c, x5u, x5t, b64) any member we do not understand could
 * change how the token is meant to be processed.
 */
const ALLOWED_HEADER_MEMBERS = new Set(["alg", "kid", "typ"]);

export class JwsFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JwsFormatError";
  }
}

export interface ParsedDeviceAssertion {
  kid: string;
  claims: Record<string, unknown>;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function decodeSegment(segment: string, what: string): Uint8Array {
  // Unpadded base64url alphabet only, and the canonical spelling (no stray trailing bits), so one
  // token has exactly one encoding.
  if (!/^[A-Za-z0-9_-]+$/.test(segment)) throw new JwsFormatError(`The ${what} is not base64url.`);
  const bytes = Buffer.from(segment, "base64url");
  if (bytes.toString("base64url") !== segment) throw new JwsFormatError(`The ${what} is not canonical base64url.`);
  return bytes;
}

function decodeJsonObject(segment: string, what: string): Record<string, unknown> {
  const bytes = decodeSegment(segment, what);
  let value: unknown;
  try {
    value = parseJsonStrict(decodeUtf8Strict(bytes));
  } catch {
    throw new JwsFormatError(`The ${what} is not valid JSON without duplicate members.`);
  }
  if (!isPlainObject(value)) throw new JwsFormatError(`The ${what} is not a JSON object.`);
  return value;
}

/** Parses and checks the token's structure and header; throws JwsFormatError with a safe message. */
export function parseDeviceAssertion(jws: unknown): ParsedDeviceAssertion {
  if (typeof jws !== "string" || jws.length === 0) throw new JwsFormatError("The assertion must be a non-empty string.");
  if (jws.length > JWS_LIMITS.total) throw new JwsFormatError("The assertion is too large.");
  const segments = jws.split(".");
  if (segments.length !== 3) throw new JwsFormatError("The assertion must be a JWS in compact serialization.");
  const [headerSegment, payloadSegment, signatureSegment] = segments as [string, string, string];
  if (headerSegment.length > JWS_LIMITS.header || payloadSegment.length > JWS_LIMITS.payload || signatureSegment.length > JWS_LIMITS.signature) {
    throw new JwsFormatError("A segment of the assertion is too large.");
  }
  decodeSegment(signatureSegment, "signature");

  const header = decodeJsonObject(headerSegment, "header");
  for (const name of Object.keys(header)) {
    if (!ALLOWED_HEADER_MEMBERS.has(name)) throw new JwsFormatError("The header has a member other than alg, kid and typ.");
  }
  if (header.alg !== "RS256") throw new JwsFormatError("The header alg must be RS256.");
  if (header.typ !== "JWT") throw new JwsFormatError("The header typ must be JWT.");
  const kid = header.kid;
  if (typeof kid !== "string" || kid.length === 0 || kid.length > JWS_LIMITS.kid) {
    throw new JwsFormatError("The header kid is required.");
  }

  const claims = decodeJsonObject(payloadSegment, "payload");
  return { kid, claims };
}
