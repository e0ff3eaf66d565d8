/**
 * Verification of the device assertion sent to POST /transfers/{id}/confirm (spec 5.3,
 * decisions 7). Pure: the device store, the nonce store, the transfer, the latest challenge and
 * the time are inputs; the caller supplies the stores inside its transaction and counts failures
 * for the lockout.
 *
 * Order: structure and header (no crypto), device lookup by kid (412 preconditions), then the
 * five verifications in spec order, reporting the first that fails as details.failedCheck.
 * Structural failures report "signature": such a token is not a valid RS256 JWS of the device.
 */
import { compactVerify, type JWK } from "jose";
import { importRsaPublicKey } from "@/lib/platform/crypto/public-key-cache";
import { constantTimeEqual } from "@/lib/platform/crypto/hash";
import { DomainError } from "@/lib/platform/errors";
import { CompactJwsError, payloadObject, splitCompactJws, type CompactJwsPolicy } from "@/lib/platform/crypto/jose-strict/compact-jws";

export type AssertionFailedCheck = "signature" | "customerBinding" | "transferMatch" | "freshness" | "challenge";

export interface AssertionDevice {
  deviceId: string;
  customerRef: string;
  status: "ACTIVE" | "DEACTIVATED";
  /** The registered public RSA JWK (kty, n, e); other members are ignored. */
  publicJwk: JWK;
}

export interface DeviceAssertionInput {
  findDeviceByKid: (kid: string) => Promise<AssertionDevice | null>;
  /** The customer resolved from the access token. */
  customerRef: string;
  /** Wire values of the transfer being confirmed; compared as exact strings. */
  transfer: { transferId: string; amount: string; currency: string; beneficiaryId: string };
  /** The most recently issued confirmationChallenge, or null when none is outstanding. */
  latestChallenge: string | null;
  now: Date;
  /** ASSERTION_MAX_AGE_SECONDS (60): allowed distance of iat from now, either way. */
  maxAgeSeconds: number;
  /**
   * Records the nonce as used by the device; false when it already was. Called at verification 4
   * (spec order), once the assertion is authentic, bound to the customer, matching and fresh, so a
   * nonce is spent even when verification 5 (challenge) then fails, and a reused nonce is reported
   * as freshness whatever its challenge. Without it the caller must record the returned nonce.
   */
  consumeNonce?: (deviceId: string, nonce: string) => Promise<boolean>;
}

export interface VerifiedDeviceAssertion {
  deviceId: string;
  /** To be recorded as used by the caller; a repeat must be rejected there. */
  nonce: string;
}

export const MAX_NONCE_LENGTH = 128;

/**
 * The assertion header (spec 5.3): alg RS256, kid and typ JWT, all required, and nothing else. An
 * allow-list, not a deny-list: besides the known-dangerous members (crit, jwk, jku, x5c, x5u, x5t,
 * b64) any member we do not understand could change how the token is meant to be processed. The
 * limits sit well above an RS256 assertion's real size (header ~110, signature 342-683 chars).
 */
export const DEVICE_ASSERTION_JWS_POLICY: CompactJwsPolicy = {
  algorithms: ["RS256"],
  members: { allow: ["alg", "kid", "typ"] },
  kid: "required",
  typ: "required",
  maxLength: { token: 8192, header: 1024, payload: 4096, signature: 1024, kid: 256 },
};

function invalid(failedCheck: AssertionFailedCheck, message: string): DomainError {
  return new DomainError("device.assertionInvalid", { message, details: { failedCheck } });
}

/** Only kty/n/e are imported: a stored JWK with private or extra members must not change behaviour. */
async function importDeviceKey(jwk: JWK) {
  if (jwk?.kty !== "RSA" || typeof jwk.n !== "string" || typeof jwk.e !== "string") {
    throw new Error("not an RSA public JWK");
  }
  return importRsaPublicKey(jwk.n, jwk.e);
}

/**
 * Verifies the assertion or throws DomainError: device.notRegistered / device.deactivated (412)
 * for the preconditions, device.assertionInvalid (422) with details.failedCheck otherwise. Token
 * content never produces another error type; an error thrown by findDeviceByKid (a database
 * fault) is passed through unchanged, because it is not the customer's failure and must not count
 * toward the lockout.
 */
export async function verifyDeviceAssertion(jws: string, input: DeviceAssertionInput): Promise<VerifiedDeviceAssertion> {
  let kid: string;
  let claims: Record<string, unknown> | undefined;
  try {
    const parts = splitCompactJws(jws, DEVICE_ASSERTION_JWS_POLICY);
    kid = parts.kid!;
    claims = payloadObject(parts);
  } catch (error) {
    throw invalid("signature", error instanceof CompactJwsError ? error.message : "The assertion is malformed.");
  }
  // Structural, like the header: such a payload is not one the device could have meant.
  if (!claims) throw invalid("signature", "The assertion payload is not a strict JSON object.");

  const device = await input.findDeviceByKid(kid);
  if (!device) {
    throw new DomainError("device.notRegistered", {
      message: "No registered device has this key.",
      remediation: "register_device",
    });
  }
  if (device.status !== "ACTIVE") {
    throw new DomainError("device.deactivated", {
      message: "The device that signed the assertion is deactivated.",
      remediation: "register_device",
    });
  }

  // Verification 1: the device's own key (chosen by kid) and nothing else; RS256 only.
  try {
    const key = await importDeviceKey(device.publicJwk);
    await compactVerify(jws, key, { algorithms: ["RS256"] });
  } catch {
    throw invalid("signature", "The assertion signature does not verify with the device's key.");
  }
  // kid picked the key; the claimed device must be that same device, or a device could sign in
  // another device's name.
  if (claims.device_id !== device.deviceId) {
    throw invalid("signature", "The assertion's device_id is not the device whose key signed it.");
  }

  // Verification 2.
  if (device.customerRef !== input.customerRef) {
    throw invalid("customerBinding", "The device is registered to another customer.");
  }

  // Verification 3: exact strings, so "100.0" is not "100.000000" and "usd" is not "USD".
  const { transfer } = input;
  if (
    claims.transfer_id !== transfer.transferId ||
    claims.amount !== transfer.amount ||
    claims.currency !== transfer.currency ||
    claims.beneficiary_id !== transfer.beneficiaryId
  ) {
    throw invalid("transferMatch", "The assertion does not match the transfer.");
  }

  // Verification 4: iat within maxAgeSeconds either way (clock skew of the device), whole seconds.
  const iat = claims.iat;
  const nowSeconds = Math.floor(input.now.getTime() / 1000);
  if (typeof iat !== "number" || !Number.isSafeInteger(iat) || Math.abs(nowSeconds - iat) > input.maxAgeSeconds) {
    throw invalid("freshness", "The assertion is not fresh.");
  }
  const nonce = claims.nonce;
  if (typeof nonce !== "string" || nonce.length === 0 || nonce.length > MAX_NONCE_LENGTH) {
    throw invalid("freshness", "The assertion nonce is missing or too long.");
  }
  if (input.consumeNonce && !(await input.consumeNonce(device.deviceId, nonce))) {
    throw invalid("freshness", "This assertion's nonce was already used.");
  }

  // Verification 5: only the most recently issued challenge.
  const challenge = claims.challenge;
  if (input.latestChallenge === null || typeof challenge !== "string" || !constantTimeEqual(challenge, input.latestChallenge)) {
    throw invalid("challenge", "The assertion does not carry the latest confirmation challenge.");
  }

  return { deviceId: device.deviceId, nonce };
}
