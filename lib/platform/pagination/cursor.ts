import { createHmac } from "node:crypto";
import { constantTimeEqual } from "@/lib/platform/crypto/hash";
import { DomainError } from "@/lib/platform/errors";

/**
 * Opaque, tamper-proof list cursors: base64url JSON plus an HMAC, so a client can neither read
 * meaning into them nor forge one that jumps into another customer's data.
 */
export function encodeCursor(secret: string, payload: Record<string, unknown>): string {
  const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
  const mac = createHmac("sha256", secret).update(body).digest("base64url").slice(0, 22);
  return `${body}.${mac}`;
}

export const invalidCursor = () =>
  new DomainError("validation.fieldInvalid", {
    message: "The cursor is not valid: use the nextCursor of a previous page.",
    details: { issues: [{ field: "query.cursor", code: "validation.fieldInvalid" }] },
  });

export function decodeCursor<T>(secret: string, cursor: string): T {
  const [body, mac] = cursor.split(".");
  if (!body || !mac || cursor.length > 1024) throw invalidCursor();
  const expected = createHmac("sha256", secret).update(body).digest("base64url").slice(0, 22);
  if (!constantTimeEqual(mac, expected)) throw invalidCursor();
  try {
    return JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as T;
  } catch {
    throw invalidCursor();
  }
}
