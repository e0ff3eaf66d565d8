/**
 * Checks of the raw partner quote done before jose sees it (spec 5.4 "Format" and "Header" rows):
 * the shared strict splitting (lib/platform/crypto/jose-strict) under the partner-quote header policy, then
 * the payload, which must be exactly its own JCS form. Each failure is quote.signatureInvalid
 * with the rule as details.failedCheck.
 */
import { CompactJwsError, splitCompactJws, type CompactJwsPolicy } from "@/lib/platform/crypto/jose-strict/compact-jws";
import { checkCanonicalJsonBytes } from "./jcs";
import { signatureInvalid } from "./signature-invalid";

/**
 * A 2048-4096-bit quote is about 2 kB; the limits leave ample room and bound parsing work. The
 * header is a deny-list: spec 5.4 forbids crit, x5c, x5t, x5u, jku, jwk; x5t#S256 is the SHA-256
 * sibling of x5t, and b64 (RFC 7797) would change what the signature covers. typ is
 * recommended, not required; when present it must say JWT.
 */
export const PARTNER_QUOTE_JWS_POLICY: CompactJwsPolicy = {
  algorithms: ["RS256"],
  members: { deny: ["crit", "x5c", "x5t", "x5t#S256", "x5u", "jku", "jwk", "b64"] },
  kid: "required",
  typ: "optional",
  maxLength: { token: 16 * 1024, header: 2 * 1024 },
};

export interface CompactJwsParts {
  kid: string;
  /** The payload's JSON value, already known to be JCS-canonical. */
  payload: unknown;
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
  let kid: string | undefined;
  let payload: Uint8Array;
  try {
    ({ kid, payload } = splitCompactJws(token, PARTNER_QUOTE_JWS_POLICY));
  } catch (error) {
    if (error instanceof CompactJwsError) throw signatureInvalid(error.reason);
    throw error;
  }
  // Spec 5.4: the signed bytes are the JCS form. Anything else is a different document.
  const canonical = checkCanonicalJsonBytes(payload);
  if (!canonical.ok) throw signatureInvalid(PAYLOAD_FAILURE[canonical.reason]);
  return { kid: kid!, payload: canonical.value };
}
