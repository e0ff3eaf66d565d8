import { and, desc, eq } from "drizzle-orm";
import { calculateJwkThumbprint, compactVerify, importJWK, type JWK } from "jose";
import type { Executor, Tx } from "@/db";
import { newId } from "@/db/ids";
import { deviceRegistrations, devices } from "@/db/schema";
import { addSeconds } from "@/lib/platform/clock";
import { config } from "@/lib/platform/config";
import { randomToken } from "@/lib/platform/crypto/hash";
import { decodeBase64urlStrict } from "@/lib/platform/crypto/jose-strict/base64url";
import { payloadObject, splitCompactJws, type CompactJwsPolicy } from "@/lib/platform/crypto/jose-strict/compact-jws";
import { DEVICE_ASSERTION_JWS_POLICY } from "@/lib/identity/devices/assertion/verify-device-assertion";
import { DomainError } from "@/lib/platform/errors";
import { NONE } from "@/lib/platform/state-machine/define";
import type { DeviceStatus } from "./status";
import { deviceMachine } from "./status-machine";

/** Device registration (decisions section 3): a challenge, then the public key with a proof signed by it. */
export async function startDeviceRegistration(tx: Tx, input: { subscriptionId: string; now: Date }) {
  const id = newId("dreg");
  const challenge = randomToken(32);
  const expiresAt = addSeconds(input.now, config().DEVICE_REGISTRATION_TTL_SECONDS);
  await tx.insert(deviceRegistrations).values({ id, subscriptionId: input.subscriptionId, challenge, expiresAt, createdAt: input.now });
  return { deviceRegistrationId: id, challenge, expiresAt: expiresAt.toISOString() };
}

const keyInvalid = (message: string) =>
  new DomainError("validation.fieldInvalid", {
    message,
    details: { issues: [{ field: "publicKey", code: "validation.fieldInvalid", message }] },
    hint: "fix_request",
  });

const proofInvalid = (failedCheck: string) =>
  new DomainError("device.assertionInvalid", { message: "The registration proof did not verify.", details: { failedCheck } });

/**
 * A JWK big integer (RFC 7518 6.3.1.1 Base64urlUInt): canonical base64url of the minimal big-endian
 * octets. Anything else (leading zero octets, whitespace, stray characters) would give one key
 * several thumbprints (kid), and leading zeros would inflate the apparent size of a small modulus.
 */
function uintOf(value: string, member: "n" | "e"): Uint8Array {
  const bytes = decodeBase64urlStrict(value);
  if (bytes === undefined) throw keyInvalid(`publicKey.${member} is not canonical base64url.`);
  if (bytes.length === 0 || bytes[0] === 0) {
    throw keyInvalid(`publicKey.${member} must be the minimal base64url encoding of the integer.`);
  }
  return bytes;
}

/**
 * The proof header: the assertion's allow-list (alg RS256, kid, typ; nothing else, so no crit, b64
 * or embedded key) and limits, but kid and typ optional: the kid (the key's thumbprint) is only
 * allocated by this call, and decisions 3 asks no typ of the proof.
 */
export const DEVICE_PROOF_JWS_POLICY: CompactJwsPolicy = { ...DEVICE_ASSERTION_JWS_POLICY, kid: "optional", typ: "optional" };

/** RSA public JWK with a modulus of at least 2048 bits, and nothing private in it. */
function publicRsaJwk(jwk: Record<string, unknown>): JWK {
  if (jwk.kty !== "RSA" || typeof jwk.n !== "string" || typeof jwk.e !== "string") throw keyInvalid("publicKey must be an RSA JWK with n and e.");
  if ("d" in jwk || "p" in jwk || "q" in jwk) throw keyInvalid("publicKey must not contain private key members.");
  const n = uintOf(jwk.n, "n");
  uintOf(jwk.e, "e");
  const bits = (n.length - 1) * 8 + (32 - Math.clz32(n[0]));
  if (bits < 2048) throw keyInvalid("The RSA modulus must have at least 2048 bits.");
  return { kty: "RSA", n: jwk.n, e: jwk.e };
}

export async function completeDeviceRegistration(
  tx: Tx,
  input: { subscriptionId: string; deviceRegistrationId: string; publicKey: Record<string, unknown>; deviceName?: string; proof: string; now: Date },
) {
  const [reg] = await tx.select().from(deviceRegistrations).where(eq(deviceRegistrations.id, input.deviceRegistrationId)).for("update");
  if (!reg || reg.subscriptionId !== input.subscriptionId) throw new DomainError("deviceRegistration.notFound", { message: "No such device registration." });
  if (reg.usedAt) throw proofInvalid("challengeUsed");
  if (reg.expiresAt.getTime() <= input.now.getTime()) throw proofInvalid("challengeExpired");

  const jwk = publicRsaJwk(input.publicKey);
  let payload: Record<string, unknown> | undefined;
  try {
    payload = payloadObject(splitCompactJws(input.proof, DEVICE_PROOF_JWS_POLICY));
    const key = await importJWK(jwk, "RS256");
    await compactVerify(input.proof, key, { algorithms: ["RS256"] });
  } catch {
    throw proofInvalid("signature");
  }
  if (!payload) throw proofInvalid("signature");
  if (payload.device_registration_id !== reg.id) throw proofInvalid("deviceRegistrationId");
  if (payload.challenge !== reg.challenge) throw proofInvalid("challenge");
  const iat = payload.iat;
  if (typeof iat !== "number" || !Number.isInteger(iat) || Math.abs(iat - input.now.getTime() / 1000) > config().ASSERTION_MAX_AGE_SECONDS) {
    throw proofInvalid("freshness");
  }

  const kid = await calculateJwkThumbprint(jwk, "sha256");
  const [taken] = await tx
    .select({ id: devices.id })
    .from(devices)
    .where(and(eq(devices.kid, kid), eq(devices.status, "ACTIVE")));
  if (taken) throw keyInvalid("This key is already registered to an active device.");
  const deviceId = newId("dev");
  await tx.update(deviceRegistrations).set({ usedAt: input.now }).where(eq(deviceRegistrations.id, reg.id));
  await tx.insert(devices).values({
    id: deviceId,
    subscriptionId: input.subscriptionId,
    kid,
    publicJwk: jwk as Record<string, unknown>,
    deviceName: input.deviceName ?? null,
    status: deviceMachine.next(NONE, "register").to,
    registeredAt: input.now,
    createdAt: input.now,
  });
  return { deviceId, kid, status: "ACTIVE" as const, registeredAt: input.now.toISOString() };
}

export interface DeviceSummary {
  deviceId: string;
  kid: string;
  deviceName: string | null;
  status: DeviceStatus;
  registeredAt: string;
}

export async function listDevices(tx: Executor, subscriptionId: string): Promise<DeviceSummary[]> {
  const rows = await tx.select().from(devices).where(eq(devices.subscriptionId, subscriptionId)).orderBy(desc(devices.registeredAt));
  return rows.map((d) => ({ deviceId: d.id, kid: d.kid, deviceName: d.deviceName, status: d.status, registeredAt: d.registeredAt.toISOString() }));
}

export async function deactivateDevice(tx: Tx, input: { subscriptionId: string; deviceId: string; now: Date }) {
  const [device] = await tx.select().from(devices).where(eq(devices.id, input.deviceId)).for("update");
  // Another customer's device answers exactly like a missing one (spec 7: 404 reveals nothing).
  if (!device || device.subscriptionId !== input.subscriptionId) throw new DomainError("device.notFound", { message: "No such device." });
  const step = deviceMachine.next(device.status, "deactivate");
  if (step.changed) await tx.update(devices).set({ status: step.to, deactivatedAt: input.now }).where(eq(devices.id, device.id));
  return { deviceId: device.id, status: "DEACTIVATED" as const };
}
