/** Small hashing and token helpers on node:crypto, so callers never hand-roll comparisons. */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

export function sha256Hex(input: string | Uint8Array): string {
  return createHash("sha256").update(input).digest("hex");
}

/**
 * Equality of two secrets without a timing signal. Both sides are hashed first so inputs of
 * different lengths are compared in constant time too (timingSafeEqual needs equal lengths, and
 * an early length check would leak the expected length).
 */
export function constantTimeEqual(a: string | Uint8Array, b: string | Uint8Array): boolean {
  const da = createHash("sha256").update(a).digest();
  const db = createHash("sha256").update(b).digest();
  return timingSafeEqual(da, db);
}

/** Unguessable token: `bytes` random bytes as unpadded base64url (32 bytes: 43 characters). */
export function randomToken(bytes = 32): string {
  if (!Number.isInteger(bytes) || bytes < 1 || bytes > 1024) {
    throw new RangeError("randomToken needs 1 to 1024 bytes");
  }
  return randomBytes(bytes).toString("base64url");
}
