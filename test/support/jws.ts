/**
 * Hand-signed compact JWS for tests that play a (possibly malicious) signer: the header and
 * payload are taken as exact text or bytes and the signature is computed as `alg` says,
 * independent of what the header claims, so tokens no honest signer makes can be built.
 */
import { constants, createHmac, sign, type KeyObject } from "node:crypto";

export type Alg = "RS256" | "RS512" | "PS256" | "HS256" | "none";

export const b64u = (data: string | Uint8Array): string => Buffer.from(typeof data === "string" ? Buffer.from(data, "utf8") : data).toString("base64url");

/** base64url(header).base64url(payload).base64url(signature); `key` is the RSA private key, or the HMAC secret for HS256. */
export function signCompact(headerText: string, payload: string | Uint8Array, key: KeyObject | string | Uint8Array | null, alg: Alg = "RS256"): string {
  const signingInput = `${b64u(headerText)}.${b64u(payload)}`;
  const data = Buffer.from(signingInput, "ascii");
  let signature: Buffer;
  switch (alg) {
    case "RS256":
      signature = sign("sha256", data, key as KeyObject);
      break;
    case "RS512":
      signature = sign("sha512", data, key as KeyObject);
      break;
    case "PS256":
      signature = sign("sha256", data, { key: key as KeyObject, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 });
      break;
    case "HS256":
      signature = createHmac("sha256", (key as string | Uint8Array | null) ?? "")
        .update(data)
        .digest();
      break;
    case "none":
      signature = Buffer.alloc(0);
      break;
  }
  return `${signingInput}.${signature.toString("base64url")}`;
}

/** Replaces one dot-separated segment of a token. */
export function withSegment(token: string, index: 0 | 1 | 2, replace: (segment: string) => string): string {
  const parts = token.split(".");
  parts[index] = replace(parts[index]!);
  return parts.join(".");
}
