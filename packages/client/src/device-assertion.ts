/**
 * The device assertion of spec 5.3: the compact JWS a customer's device signs to confirm a
 * transfer (POST /v1/core/transfers/{id}/confirm). Header exactly {alg: RS256, kid, typ: JWT}
 * (the service accepts no other member); claims transfer_id, amount, currency, beneficiary_id,
 * device_id, nonce, challenge, iat, copied as exact strings from the transfer read.
 */
import { CompactSign, importJWK, type JWK } from "jose";
import type { KeyObject } from "node:crypto";

export interface DeviceKey {
  /** The deviceId the service returned at device registration. */
  deviceId: string;
  /** The registered key's kid (device-registration key id). */
  kid: string;
  /** The device's RSA private key (2048 bits or more): a CryptoKey, KeyObject or private JWK. */
  privateKey: CryptoKey | KeyObject | JWK;
}

/** The members of a transfer read (GET /v1/core/transfers/{id} in `validated`) the assertion binds. */
export interface ConfirmableTransfer {
  transferId: string;
  originAmount: string;
  originCurrency: string;
  beneficiaryId: string;
  /** The latest confirmationChallenge: every read issues a new one and only the latest counts. */
  confirmationChallenge?: string | null;
}

export interface DeviceAssertionOptions {
  /** Defaults to now; the service allows 60 seconds either way. */
  iat?: number;
  /** Defaults to a random UUID; a nonce is accepted once. */
  nonce?: string;
}

export async function deviceAssertion(transfer: ConfirmableTransfer, deviceKey: DeviceKey, options: DeviceAssertionOptions = {}): Promise<string> {
  if (!transfer.confirmationChallenge) throw new TypeError("deviceAssertion: the transfer carries no confirmationChallenge (read it in validated)");
  if (!deviceKey.kid || !deviceKey.deviceId) throw new TypeError("deviceAssertion: deviceKey needs deviceId and kid");
  const key = isJwk(deviceKey.privateKey) ? await importJWK(deviceKey.privateKey, "RS256") : deviceKey.privateKey;
  const claims = {
    transfer_id: transfer.transferId,
    amount: transfer.originAmount,
    currency: transfer.originCurrency,
    beneficiary_id: transfer.beneficiaryId,
    device_id: deviceKey.deviceId,
    nonce: options.nonce ?? crypto.randomUUID(),
    challenge: transfer.confirmationChallenge,
    iat: options.iat ?? Math.floor(Date.now() / 1000),
  };
  return new CompactSign(new TextEncoder().encode(JSON.stringify(claims))).setProtectedHeader({ alg: "RS256", kid: deviceKey.kid, typ: "JWT" }).sign(key);
}

function isJwk(key: unknown): key is JWK {
  return typeof key === "object" && key !== null && "kty" in key;
}
