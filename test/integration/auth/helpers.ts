/** Shared helpers of the Auth API integration tests (not a test file). */
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { CompactSign, calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from "jose";
import { call, serverNow, type CallResult } from "../support";

export const TOKEN_KEYS = ["accessToken", "expiresIn", "nextStep", "refreshToken", "subscriptionId", "tokenType"];

/** Asserts the token response of decisions section 3, exactly. */
export function assertTokenResponse(res: CallResult, status: number, nextStep?: string) {
  assert.equal(res.status, status, res.text);
  assert.deepEqual(Object.keys(res.body).sort(), TOKEN_KEYS);
  assert.equal(res.body.tokenType, "Bearer");
  assert.equal(res.body.expiresIn, 3600);
  assert.equal(typeof res.body.accessToken, "string");
  assert.equal(typeof res.body.refreshToken, "string");
  assert.ok(res.body.accessToken.length >= 20);
  assert.ok(res.body.refreshToken.length >= 20);
  assert.notEqual(res.body.accessToken, res.body.refreshToken);
  assert.equal(typeof res.body.subscriptionId, "string");
  assert.ok(res.body.subscriptionId.length > 0);
  if (nextStep) assert.equal(res.body.nextStep, nextStep);
  else assert.equal(typeof res.body.nextStep, "string");
}

/** The sandbox outbox's latest message for an identifier (the full body). */
export async function outbox(identifier: string) {
  return call("GET", `/v1/sandbox/otp?identifier=${encodeURIComponent(identifier)}`);
}

/** A code that is certainly not `code`. */
export const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

export interface DeviceKey {
  privateKey: CryptoKey;
  publicJwk: JWK;
  kid: string;
}

export async function rsaKey(modulusLength = 2048): Promise<DeviceKey> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { modulusLength, extractable: true });
  const full = await exportJWK(publicKey);
  const publicJwk: JWK = { kty: "RSA", n: full.n, e: full.e };
  return { privateKey, publicJwk, kid: await calculateJwkThumbprint(publicJwk, "sha256") };
}

/** A public RSA JWK of any size (jose refuses to make keys under 2048 bits). */
export function smallRsaPublicJwk(modulusLength = 1024): JWK {
  const { publicKey } = generateKeyPairSync("rsa", { modulusLength });
  const jwk = publicKey.export({ format: "jwk" });
  return { kty: "RSA", n: jwk.n, e: jwk.e };
}

export async function proofJws(key: CryptoKey, payload: Record<string, unknown>, header: Record<string, unknown> = {}): Promise<string> {
  return new CompactSign(new TextEncoder().encode(JSON.stringify(payload))).setProtectedHeader({ alg: "RS256", typ: "JWT", ...header }).sign(key);
}

export async function startDeviceRegistration(token: string) {
  const res = await call("POST", "/v1/auth/device-registration/start", { token, body: {} });
  assert.equal(res.status, 200, res.text);
  return res.body as { deviceRegistrationId: string; challenge: string; expiresAt: string };
}

/** Starts and completes a device registration with a fresh key; returns the response and the key. */
export async function registerDevice(token: string, deviceName = "Test phone") {
  const reg = await startDeviceRegistration(token);
  const key = await rsaKey();
  const iat = Math.floor((await serverNow()).getTime() / 1000);
  const proof = await proofJws(key.privateKey, { device_registration_id: reg.deviceRegistrationId, challenge: reg.challenge, iat });
  const res = await call("POST", "/v1/auth/device-registration/complete", {
    token,
    body: { deviceRegistrationId: reg.deviceRegistrationId, publicKey: key.publicJwk, deviceName, proof },
  });
  return { res, key, reg };
}
