/**
 * Devices in the integration tests: RSA key pairs, compact JWS over exactly the header and payload
 * given (so tests can also build every malformed or hostile variant: other algorithms, other keys,
 * wrong claims), device registration and transfer assertions. A proof's or assertion's iat always
 * comes from the SERVER clock.
 */
import assert from "node:assert/strict";
import { createPublicKey, generateKeyPairSync, randomUUID, type KeyObject } from "node:crypto";
import { signCompact, type Alg } from "../../support/jws";
import { call } from "./client";
import { serverSeconds } from "./clock";

export type { Alg } from "../../support/jws";

export interface KeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** Public RSA JWK (kty, n, e). */
  publicJwk: { kty: string; n: string; e: string };
}

export interface Device extends KeyPair {
  deviceId: string;
  kid: string;
}

export function newKeyPair(modulusLength = 2048): KeyPair {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength });
  const jwk = publicKey.export({ format: "jwk" }) as { kty: string; n: string; e: string };
  return { privateKey, publicKey, publicJwk: { kty: jwk.kty, n: jwk.n, e: jwk.e } };
}

/** A compact JWS over exactly this header and payload (a string payload is taken as is), signed as `alg` says (HS256: `key` is the HMAC secret). */
export function compactJws(header: Record<string, unknown>, payload: unknown, key: KeyObject | string | Buffer | null, alg: Alg = "RS256"): string {
  return signCompact(JSON.stringify(header), typeof payload === "string" ? payload : JSON.stringify(payload), key, alg);
}

/** The public key as PEM (the HS256 "public key as secret" attack). */
export function publicPem(keys: KeyPair): string {
  return createPublicKey(keys.privateKey).export({ type: "spki", format: "pem" }).toString();
}

/** Registers a device with this key pair (a new one by default): start, proof signed with the key, complete (201). */
export async function registerDevice(c: { token: string }, keys: KeyPair = newKeyPair(), deviceName = "Test phone"): Promise<Device> {
  const start = await call("POST", "/v1/auth/device-registration/start", { token: c.token, body: {} });
  assert.equal(start.status, 200, start.text);
  const proof = compactJws(
    { alg: "RS256", typ: "JWT" },
    { device_registration_id: start.body.deviceRegistrationId, challenge: start.body.challenge, iat: await serverSeconds() },
    keys.privateKey,
  );
  const done = await call("POST", "/v1/auth/device-registration/complete", {
    token: c.token,
    body: { deviceRegistrationId: start.body.deviceRegistrationId, publicKey: keys.publicJwk, deviceName, proof },
  });
  assert.equal(done.status, 201, done.text);
  return { ...keys, deviceId: done.body.deviceId, kid: done.body.kid };
}

export async function deactivateDevice(c: { token: string }, device: { deviceId: string }): Promise<void> {
  const res = await call("POST", `/v1/auth/devices/${device.deviceId}/deactivate`, { token: c.token });
  assert.equal(res.status, 200, res.text);
}

export interface AssertionClaims {
  transfer_id: unknown;
  amount: unknown;
  currency: unknown;
  beneficiary_id: unknown;
  device_id: unknown;
  nonce: unknown;
  challenge: unknown;
  iat: unknown;
  [k: string]: unknown;
}

/** What a transfer detail must carry to be confirmed: its latest read's challenge. */
export interface ConfirmableTransfer {
  transferId: string;
  originAmount: string;
  originCurrency: string;
  beneficiaryId: string;
  confirmationChallenge?: string;
}

/** The claims a correct assertion for this transfer (as last read) carries; iat from the server clock. */
export async function claimsFor(device: { deviceId: string }, t: ConfirmableTransfer, overrides: Partial<AssertionClaims> = {}): Promise<AssertionClaims> {
  assert.ok(t.confirmationChallenge, `no confirmationChallenge on ${JSON.stringify(t)}`);
  return {
    transfer_id: t.transferId,
    amount: t.originAmount,
    currency: t.originCurrency,
    beneficiary_id: t.beneficiaryId,
    device_id: device.deviceId,
    nonce: randomUUID(),
    challenge: t.confirmationChallenge,
    iat: overrides.iat ?? (await serverSeconds()),
    ...overrides,
  };
}

/** RS256 over the claims with the device's key and its kid (header overridable). */
export function signAssertion(device: { kid: string; privateKey: KeyObject }, claims: unknown, header: Record<string, unknown> = {}): string {
  return compactJws({ alg: "RS256", kid: device.kid, typ: "JWT", ...header }, claims, device.privateKey);
}

/** A correct assertion for the transfer as last read. */
export async function validAssertion(device: Device, t: ConfirmableTransfer, overrides: Partial<AssertionClaims> = {}): Promise<string> {
  return signAssertion(device, await claimsFor(device, t, overrides));
}
