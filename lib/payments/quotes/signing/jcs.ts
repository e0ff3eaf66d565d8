/**
 * RFC 8785 JSON Canonicalization Scheme, the payload form of signed quotes (spec 5.4: "JCS (keys
 * sorted, UTF-8, no whitespace) before base64url"). Serialisation is the `canonicalize` package
 * (ECMAScript number formatting and UTF-16 key order, as RFC 8785 sections 3.2.2 and 3.2.3 ask);
 * this module adds the refusals RFC 8785 requires but the package does not make reliably:
 * - lone surrogates (RFC 8785 3.2.2.2 requires well-formed Unicode; JSON.stringify would quietly
 *   write "\ud800" and produce a "canonical" form of ill-formed text);
 * - non-finite numbers (not representable in JSON, RFC 8785 3.2.2.3);
 * - anything that is not plain JSON data (undefined, functions, symbols, bigint, class instances
 *   such as Date whose toJSON would be called): serialising them silently drops or converts data
 *   that was meant to be signed.
 */
import canonicalize from "canonicalize";
import { decodeUtf8Strict, hasLoneSurrogate, scanStrictJson, StrictJsonError } from "@/lib/platform/crypto/jose-strict/strict-json";

export type JcsFailure = "loneSurrogate" | "nonFinite" | "unsupportedType" | "cycle" | "tooDeep";

export class JcsError extends Error {
  readonly reason: JcsFailure;
  /** JSON-pointer-like location of the offending value ("" is the root). */
  readonly path: string;
  constructor(reason: JcsFailure, path: string) {
    super(`cannot canonicalise value at "${path}": ${reason}`);
    this.name = "JcsError";
    this.reason = reason;
    this.path = path;
  }
}

/** Generous for real documents, and far below the depth where recursion would overflow. */
const MAX_DEPTH = 256;

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function escapePointer(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Throws JcsError unless value is plain, finite, well-formed JSON data. */
function assertJsonData(value: unknown, path: string, depth: number, ancestors: Set<object>): void {
  if (value === null || typeof value === "boolean") return;
  if (typeof value === "string") {
    if (hasLoneSurrogate(value)) throw new JcsError("loneSurrogate", path);
    return;
  }
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new JcsError("nonFinite", path);
    return;
  }
  if (typeof value !== "object") throw new JcsError("unsupportedType", path);
  if (depth >= MAX_DEPTH) throw new JcsError("tooDeep", path);
  if (ancestors.has(value)) throw new JcsError("cycle", path);
  ancestors.add(value);
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      // A hole would be skipped by the serialiser, shifting every later element.
      if (!(index in value)) throw new JcsError("unsupportedType", `${path}/${index}`);
      assertJsonData(value[index], `${path}/${index}`, depth + 1, ancestors);
    }
  } else {
    if (!isPlainObject(value)) throw new JcsError("unsupportedType", path);
    // Symbol-keyed members are ignored by every JSON serialiser; refuse rather than drop them.
    if (Object.getOwnPropertySymbols(value).length > 0) throw new JcsError("unsupportedType", path);
    for (const [name, member] of Object.entries(value)) {
      const memberPath = `${path}/${escapePointer(name)}`;
      if (hasLoneSurrogate(name)) throw new JcsError("loneSurrogate", memberPath);
      assertJsonData(member, memberPath, depth + 1, ancestors);
    }
  }
  ancestors.delete(value);
}

/** The RFC 8785 canonical text of value; throws JcsError for values JCS cannot represent. */
export function canonicalJson(value: unknown): string {
  assertJsonData(value, "", 0, new Set());
  const text = canonicalize(value);
  // canonicalize returns undefined only for undefined-like roots, which assertJsonData refused.
  if (typeof text !== "string") throw new JcsError("unsupportedType", "");
  return text;
}

/** The canonical text as UTF-8 bytes: what gets base64url-encoded into a JWS payload. */
export function canonicalJsonBytes(value: unknown): Uint8Array {
  return new TextEncoder().encode(canonicalJson(value));
}

export type CanonicalCheck = { ok: true; value: unknown } | { ok: false; reason: "utf8" | "syntax" | "duplicateMember" | "loneSurrogate" | "notCanonical" };

/**
 * Whether bytes are a JCS document exactly: valid UTF-8, strict JSON without duplicate member
 * names at any depth and without lone surrogates, and byte-identical to their own canonical form
 * (which rules out whitespace, unsorted keys, "1.0", "\u0041" and every other alternative spelling).
 */
export function checkCanonicalJsonBytes(bytes: Uint8Array): CanonicalCheck {
  let text: string;
  let value: unknown;
  try {
    text = decodeUtf8Strict(bytes);
    scanStrictJson(text);
    value = JSON.parse(text) as unknown;
  } catch (error) {
    if (error instanceof StrictJsonError) return { ok: false, reason: error.reason };
    return { ok: false, reason: "syntax" };
  }
  let canonical: string;
  try {
    canonical = canonicalJson(value);
  } catch (error) {
    // Numbers outside double range parse to Infinity; lone surrogates were already refused.
    if (error instanceof JcsError && error.reason === "loneSurrogate") return { ok: false, reason: "loneSurrogate" };
    return { ok: false, reason: "notCanonical" };
  }
  // Both sides are well-formed strings here, so comparing UTF-16 text equals comparing UTF-8 bytes.
  if (canonical !== text) return { ok: false, reason: "notCanonical" };
  return { ok: true, value };
}

export function isCanonicalJsonBytes(bytes: Uint8Array): boolean {
  return checkCanonicalJsonBytes(bytes).ok;
}
