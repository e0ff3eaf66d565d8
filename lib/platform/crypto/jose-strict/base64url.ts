/**
 * Canonical base64url (RFC 4648 section 5, unpadded as RFC 7515 section 2 requires for JWS).
 * Node's decoders are lenient: they skip whitespace and unknown characters, accept "=" padding
 * and ignore non-zero trailing bits, so many strings decode to the same bytes. A signed token (or
 * a stored ciphertext) must have exactly one spelling, hence: strict alphabet, then decode and
 * re-encode and compare.
 */

const ALPHABET = /^[A-Za-z0-9_-]*$/;

/** The bytes of s, or undefined unless s is the one canonical unpadded base64url spelling of them. */
export function decodeBase64urlStrict(s: string): Uint8Array | undefined {
  if (!ALPHABET.test(s)) return undefined;
  const bytes = Buffer.from(s, "base64url");
  if (bytes.toString("base64url") !== s) return undefined;
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

export function encodeBase64url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64url");
}
