/** Device registration, listing and deactivation (decisions section 3, spec 5.3). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { proofJws, registerDevice, rsaKey, smallRsaPublicJwk, startDeviceRegistration } from "./helpers";
import { advanceClock, call, registerCustomer, uniqueEmail, assertError, assertIssue, assertIssues, serverNow } from "../support";

const complete = (token: string, body: Record<string, unknown>) => call("POST", "/v1/auth/device-registration/complete", { token, body });
const list = (token: string) => call("GET", "/v1/auth/devices", { token });
const deactivate = (token: string, deviceId: string) => call("POST", `/v1/auth/devices/${encodeURIComponent(deviceId)}/deactivate`, { token });
const nowSeconds = async () => Math.floor((await serverNow()).getTime() / 1000);

async function customer() {
  return (await registerCustomer(uniqueEmail("dev"))).tokens.accessToken;
}

test("start: 200 {deviceRegistrationId, challenge, expiresAt} with a 5-minute challenge", async () => {
  const token = await customer();
  const before = await serverNow();
  const res = await call("POST", "/v1/auth/device-registration/start", { token, body: {} });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(Object.keys(res.body).sort(), ["challenge", "deviceRegistrationId", "expiresAt"]);
  assert.equal(typeof res.body.deviceRegistrationId, "string");
  assert.ok(res.body.challenge.length >= 32, "the challenge is long and random");
  const ttl = (Date.parse(res.body.expiresAt) - before.getTime()) / 1000;
  assert.ok(ttl > 290 && ttl <= 310, `5 minutes, got ${ttl}s`);
  const again = await startDeviceRegistration(token);
  assert.notEqual(again.challenge, res.body.challenge);
});

test("start needs a bearer token", async () => {
  assertError(await call("POST", "/v1/auth/device-registration/start", { body: {} }), 401, "auth.tokenInvalid");
});

test("complete: 201 {deviceId, kid, status ACTIVE, registeredAt}; kid is the RFC 7638 thumbprint", async () => {
  const token = await customer();
  const { res, key } = await registerDevice(token, "Ada's phone");
  assert.equal(res.status, 201, res.text);
  assert.deepEqual(Object.keys(res.body).sort(), ["deviceId", "kid", "registeredAt", "status"]);
  assert.equal(res.body.kid, key.kid);
  assert.equal(res.body.status, "ACTIVE");
  assert.equal(typeof res.body.deviceId, "string");
  assert.notEqual(res.body.deviceId, key.kid, "deviceId is server-allocated, not the thumbprint");
  assert.ok(!Number.isNaN(Date.parse(res.body.registeredAt)));
  assert.equal(new Date(res.body.registeredAt).toISOString(), res.body.registeredAt);

  const listed = await list(token);
  assert.equal(listed.status, 200, listed.text);
  assert.deepEqual(listed.body, {
    items: [{ deviceId: res.body.deviceId, kid: key.kid, deviceName: "Ada's phone", status: "ACTIVE", registeredAt: res.body.registeredAt }],
  });
});

test("complete without deviceName: listed with deviceName null", async () => {
  const token = await customer();
  const reg = await startDeviceRegistration(token);
  const key = await rsaKey();
  const proof = await proofJws(key.privateKey, { device_registration_id: reg.deviceRegistrationId, challenge: reg.challenge, iat: await nowSeconds() });
  const res = await complete(token, { deviceRegistrationId: reg.deviceRegistrationId, publicKey: key.publicJwk, proof });
  assert.equal(res.status, 201, res.text);
  const listed = await list(token);
  assert.equal(listed.body.items[0].deviceName, null);
});

test("a 1024-bit key: 400 validation.fieldInvalid on publicKey", async () => {
  const token = await customer();
  const reg = await startDeviceRegistration(token);
  const signer = await rsaKey();
  const proof = await proofJws(signer.privateKey, { device_registration_id: reg.deviceRegistrationId, challenge: reg.challenge, iat: await nowSeconds() });
  const res = await complete(token, { deviceRegistrationId: reg.deviceRegistrationId, publicKey: smallRsaPublicJwk(1024), proof });
  assertError(res, 400, "validation.fieldInvalid");
  assertIssue(res, "publicKey", "validation.fieldInvalid");
  assert.deepEqual((await list(token)).body.items, []);
});

test("publicKey that is not a public RSA JWK: 400 validation.fieldInvalid on publicKey", async () => {
  const token = await customer();
  const reg = await startDeviceRegistration(token);
  const key = await rsaKey();
  const proof = await proofJws(key.privateKey, { device_registration_id: reg.deviceRegistrationId, challenge: reg.challenge, iat: await nowSeconds() });
  const bad = [
    { kty: "EC", crv: "P-256", x: "x", y: "y" },
    { kty: "RSA", e: key.publicJwk.e },
    { ...key.publicJwk, d: "AQAB" }, // private member
    { kty: "RSA", n: "!!!not base64url!!!", e: "AQAB" },
  ];
  for (const publicKey of bad) {
    const res = await complete(token, { deviceRegistrationId: reg.deviceRegistrationId, publicKey, proof });
    assertError(res, 400, "validation.fieldInvalid");
    assertIssue(res, "publicKey", "validation.fieldInvalid");
  }
  // Still usable with the right key afterwards.
  assert.equal((await complete(token, { deviceRegistrationId: reg.deviceRegistrationId, publicKey: key.publicJwk, proof })).status, 201);
});

test("proof signed by another key: 422 device.assertionInvalid", async () => {
  const token = await customer();
  const reg = await startDeviceRegistration(token);
  const key = await rsaKey();
  const other = await rsaKey();
  const proof = await proofJws(other.privateKey, { device_registration_id: reg.deviceRegistrationId, challenge: reg.challenge, iat: await nowSeconds() });
  assertError(await complete(token, { deviceRegistrationId: reg.deviceRegistrationId, publicKey: key.publicJwk, proof }), 422, "device.assertionInvalid");
  assert.deepEqual((await list(token)).body.items, []);
});

test("wrong challenge, wrong registration id or stale iat in the proof: 422 device.assertionInvalid", async () => {
  const token = await customer();
  const reg = await startDeviceRegistration(token);
  const key = await rsaKey();
  const iat = await nowSeconds();
  const payloads = [
    { device_registration_id: reg.deviceRegistrationId, challenge: `${reg.challenge}x`, iat },
    { device_registration_id: reg.deviceRegistrationId, iat },
    { device_registration_id: "dreg_other", challenge: reg.challenge, iat },
    { device_registration_id: reg.deviceRegistrationId, challenge: reg.challenge, iat: iat - 3600 },
    { device_registration_id: reg.deviceRegistrationId, challenge: reg.challenge, iat: iat + 3600 },
    { device_registration_id: reg.deviceRegistrationId, challenge: reg.challenge, iat: String(iat) },
  ];
  for (const payload of payloads) {
    const proof = await proofJws(key.privateKey, payload);
    const res = await complete(token, { deviceRegistrationId: reg.deviceRegistrationId, publicKey: key.publicJwk, proof });
    assertError(res, 422, "device.assertionInvalid");
  }
  for (const proof of ["not-a-jws", "a.b.c", "eyJhbGciOiJub25lIn0.e30."]) {
    assertError(await complete(token, { deviceRegistrationId: reg.deviceRegistrationId, publicKey: key.publicJwk, proof }), 422, "device.assertionInvalid");
  }
  // None of that spent the challenge.
  const good = await proofJws(key.privateKey, { device_registration_id: reg.deviceRegistrationId, challenge: reg.challenge, iat: await nowSeconds() });
  assert.equal((await complete(token, { deviceRegistrationId: reg.deviceRegistrationId, publicKey: key.publicJwk, proof: good })).status, 201);
});

test("the challenge is single use: a second complete is 422 device.assertionInvalid", async () => {
  const token = await customer();
  const { res, reg } = await registerDevice(token);
  assert.equal(res.status, 201, res.text);
  const another = await rsaKey();
  const proof = await proofJws(another.privateKey, { device_registration_id: reg.deviceRegistrationId, challenge: reg.challenge, iat: await nowSeconds() });
  assertError(await complete(token, { deviceRegistrationId: reg.deviceRegistrationId, publicKey: another.publicJwk, proof }), 422, "device.assertionInvalid");
  assert.equal((await list(token)).body.items.length, 1);
});

test("an expired challenge (clock +301 s): 422 device.assertionInvalid", async () => {
  const token = await customer();
  const reg = await startDeviceRegistration(token);
  const key = await rsaKey();
  await advanceClock(301);
  // iat is fresh: only the challenge's age is wrong.
  const proof = await proofJws(key.privateKey, { device_registration_id: reg.deviceRegistrationId, challenge: reg.challenge, iat: await nowSeconds() });
  assertError(await complete(token, { deviceRegistrationId: reg.deviceRegistrationId, publicKey: key.publicJwk, proof }), 422, "device.assertionInvalid");
});

test("another customer's registration: 404 deviceRegistration.notFound", async () => {
  const alice = await customer();
  const bob = await customer();
  const reg = await startDeviceRegistration(alice);
  const key = await rsaKey();
  const proof = await proofJws(key.privateKey, { device_registration_id: reg.deviceRegistrationId, challenge: reg.challenge, iat: await nowSeconds() });
  assertError(await complete(bob, { deviceRegistrationId: reg.deviceRegistrationId, publicKey: key.publicJwk, proof }), 404, "deviceRegistration.notFound");
  assertError(await complete(bob, { deviceRegistrationId: "dreg_nope", publicKey: key.publicJwk, proof }), 404, "deviceRegistration.notFound");
});

test("a key already on an active device cannot be registered again", async () => {
  const token = await customer();
  const first = await registerDevice(token);
  assert.equal(first.res.status, 201);
  const reg = await startDeviceRegistration(token);
  const proof = await proofJws(first.key.privateKey, { device_registration_id: reg.deviceRegistrationId, challenge: reg.challenge, iat: await nowSeconds() });
  const res = await complete(token, { deviceRegistrationId: reg.deviceRegistrationId, publicKey: first.key.publicJwk, proof });
  assertError(res, 400, "validation.fieldInvalid");
  assertIssue(res, "publicKey", "validation.fieldInvalid");
});

test("complete body: missing fields are 400 validation.fieldMissing", async () => {
  const token = await customer();
  const res = await complete(token, { deviceRegistrationId: "dreg_x" });
  assertIssues(res, "validation.fieldMissing", [
    { field: "publicKey", code: "validation.fieldMissing" },
    { field: "proof", code: "validation.fieldMissing" },
  ]);
});

test("list: newest first, every device of the customer only", async () => {
  const token = await customer();
  const other = await customer();
  const a = await registerDevice(token, "first");
  const b = await registerDevice(token, "second");
  await registerDevice(other, "not mine");
  const listed = await list(token);
  assert.equal(listed.status, 200);
  for (const item of listed.body.items) assert.deepEqual(Object.keys(item).sort(), ["deviceId", "deviceName", "kid", "registeredAt", "status"]);
  assert.deepEqual(listed.body.items.map((d: { deviceId: string }) => d.deviceId).sort(), [a.res.body.deviceId, b.res.body.deviceId].sort());
  assert.ok(listed.body.items[0].registeredAt >= listed.body.items[1].registeredAt);
});

test("deactivate: 200 {deviceId, status DEACTIVATED}; the list shows it; repeating is harmless", async () => {
  const token = await customer();
  const { res } = await registerDevice(token);
  const out = await deactivate(token, res.body.deviceId);
  assert.equal(out.status, 200, out.text);
  assert.deepEqual(out.body, { deviceId: res.body.deviceId, status: "DEACTIVATED" });
  const listed = await list(token);
  assert.equal(listed.body.items.length, 1);
  assert.equal(listed.body.items[0].status, "DEACTIVATED");
  assert.equal(listed.body.items[0].deviceId, res.body.deviceId);
  const again = await deactivate(token, res.body.deviceId);
  assert.equal(again.status, 200);
  assert.deepEqual(again.body, { deviceId: res.body.deviceId, status: "DEACTIVATED" });
});

test("deactivating another customer's device is 404 device.notFound, like a missing one; it stays active", async () => {
  const owner = await customer();
  const intruder = await customer();
  const { res } = await registerDevice(owner);
  const foreign = await deactivate(intruder, res.body.deviceId);
  const missing = await deactivate(intruder, "dev_doesnotexist");
  assertError(foreign, 404, "device.notFound");
  assertError(missing, 404, "device.notFound");
  assert.deepEqual({ ...foreign.body, correlationId: null }, { ...missing.body, correlationId: null });
  assert.equal((await list(owner)).body.items[0].status, "ACTIVE");
});

test("devices need a bearer token", async () => {
  assertError(await call("GET", "/v1/auth/devices"), 401, "auth.tokenInvalid");
  assertError(await call("POST", "/v1/auth/devices/dev_x/deactivate"), 401, "auth.tokenInvalid");
});

test("a 2047-bit modulus is refused (bit count, not byte count)", async () => {
  const token = await customer();
  const reg = await startDeviceRegistration(token);
  const signer = await rsaKey();
  const proof = await proofJws(signer.privateKey, { device_registration_id: reg.deviceRegistrationId, challenge: reg.challenge, iat: await nowSeconds() });
  const res = await complete(token, { deviceRegistrationId: reg.deviceRegistrationId, publicKey: smallRsaPublicJwk(2047), proof });
  assertError(res, 400, "validation.fieldInvalid");
  assertIssue(res, "publicKey", "validation.fieldInvalid");
});

test("n or e not in minimal base64url form is refused (RFC 7518 Base64urlUInt), so one key cannot get a second kid", async () => {
  const token = await customer();
  const first = await registerDevice(token);
  assert.equal(first.res.status, 201, first.res.text);
  const n = Buffer.from(first.key.publicJwk.n!, "base64url");
  const e = Buffer.from(first.key.publicJwk.e!, "base64url");
  const paddedKeys = [
    { kty: "RSA", e: first.key.publicJwk.e, n: Buffer.concat([Buffer.alloc(1), n]).toString("base64url") },
    { kty: "RSA", e: first.key.publicJwk.e, n: Buffer.concat([Buffer.alloc(2), n]).toString("base64url") },
    { kty: "RSA", e: Buffer.concat([Buffer.alloc(1), e]).toString("base64url"), n: first.key.publicJwk.n },
    { kty: "RSA", e: first.key.publicJwk.e, n: `${first.key.publicJwk.n}\n` }, // decodes to the same integer
  ];
  for (const padded of paddedKeys) {
    const reg = await startDeviceRegistration(token);
    const proof = await proofJws(first.key.privateKey, { device_registration_id: reg.deviceRegistrationId, challenge: reg.challenge, iat: await nowSeconds() });
    const res = await complete(token, { deviceRegistrationId: reg.deviceRegistrationId, publicKey: padded, proof });
    assertError(res, 400, "validation.fieldInvalid");
    assertIssue(res, "publicKey", "validation.fieldInvalid");
  }
  // A small key padded up to 2048 bits' worth of bytes is refused as well.
  const small = smallRsaPublicJwk(1024);
  const smallPadded = { kty: "RSA", e: small.e, n: Buffer.concat([Buffer.alloc(129), Buffer.from(small.n!, "base64url")]).toString("base64url") };
  const reg = await startDeviceRegistration(token);
  const res = await complete(token, { deviceRegistrationId: reg.deviceRegistrationId, publicKey: smallPadded, proof: "a.b.c" });
  assertError(res, 400, "validation.fieldInvalid");
  assert.equal((await list(token)).body.items.length, 1);
});
