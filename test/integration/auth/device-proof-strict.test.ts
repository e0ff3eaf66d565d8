/**
 * The device registration proof is read by the shared strict JOSE toolkit (decisions section 3:
 * a bad proof is 422 device.assertionInvalid). Each proof here is correctly signed by the key
 * being registered; before the toolkit they were accepted (or, for a non-object payload, a 500).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { proofJws, rsaKey, startDeviceRegistration, type DeviceKey } from "./helpers";
import { call, registerCustomer, uniqueEmail, type CallResult, assertError, serverNow } from "../support";

const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64url");

/** Signs raw header and payload text, so tokens jose's signer would never write can be sent. */
async function rawProof(key: DeviceKey, header: string, payload: string): Promise<string> {
  const signingInput = `${b64(header)}.${b64(payload)}`;
  const signature = await crypto.subtle.sign("RSASSA-PKCS1-v1_5", key.privateKey, new TextEncoder().encode(signingInput));
  return `${signingInput}.${Buffer.from(signature).toString("base64url")}`;
}

async function setup() {
  const token = (await registerCustomer(uniqueEmail("proof"))).tokens.accessToken;
  const reg = await startDeviceRegistration(token);
  const key = await rsaKey();
  const iat = Math.floor((await serverNow()).getTime() / 1000);
  const claims = JSON.stringify({ device_registration_id: reg.deviceRegistrationId, challenge: reg.challenge, iat });
  const complete = (proof: string) =>
    call("POST", "/v1/auth/device-registration/complete", { token, body: { deviceRegistrationId: reg.deviceRegistrationId, publicKey: key.publicJwk, proof } });
  return { reg, key, claims, complete };
}

function assertSignatureCheck(res: CallResult) {
  const error = assertError(res, 422, "device.assertionInvalid");
  assert.deepEqual(error.details, { failedCheck: "signature" });
}

test("a correctly signed proof still registers, with or without typ and kid in the header", async () => {
  for (const header of ['{"alg":"RS256"}', '{"alg":"RS256","typ":"JWT"}']) {
    const { key, claims, complete } = await setup();
    const res = await complete(await rawProof(key, header, claims));
    assert.equal(res.status, 201, res.text);
  }
  const { key, claims, complete } = await setup();
  assert.equal((await complete(await rawProof(key, `{"alg":"RS256","kid":"${key.kid}"}`, claims))).status, 201);
});

test("duplicate members in the proof payload or header: 422 failedCheck signature", async () => {
  const { reg, key, claims, complete } = await setup();
  const duplicated = claims.replace(/}$/, `,"challenge":"${reg.challenge}"}`);
  assertSignatureCheck(await complete(await rawProof(key, '{"alg":"RS256"}', duplicated)));
  assertSignatureCheck(await complete(await rawProof(key, '{"alg":"RS256","typ":"JWT","typ":"JWT"}', claims)));
  // Refusals are structural: the challenge is still unspent.
  assert.equal((await complete(await proofJws(key.privateKey, JSON.parse(claims)))).status, 201);
});

test("a lone surrogate in the proof: 422 failedCheck signature", async () => {
  const { key, claims, complete } = await setup();
  assertSignatureCheck(await complete(await rawProof(key, '{"alg":"RS256"}', claims.replace(/}$/, ',"x":"\\ud800"}'))));
});

test("header members beyond alg, kid and typ (jwk, crit, cty): 422 failedCheck signature", async () => {
  const { key, claims, complete } = await setup();
  for (const extra of [`"jwk":${JSON.stringify(key.publicJwk)}`, '"crit":["exp"],"exp":1', '"cty":"JWT"']) {
    assertSignatureCheck(await complete(await rawProof(key, `{"alg":"RS256",${extra}}`, claims)));
  }
});

test("a proof payload that is not a JSON object: 422 failedCheck signature, never a 500", async () => {
  const { key, complete } = await setup();
  for (const payload of ["null", "[1]", '"text"']) {
    assertSignatureCheck(await complete(await rawProof(key, '{"alg":"RS256"}', payload)));
  }
});

test("a non-canonical base64url segment: 422 failedCheck signature", async () => {
  const { key, claims, complete } = await setup();
  const good = await proofJws(key.privateKey, JSON.parse(claims));
  const [h, p, s] = good.split(".") as [string, string, string];
  assertSignatureCheck(await complete(`${h}.${p}.${s}==`));
  assertSignatureCheck(await complete(`${h}.${p}.${s.replace(/-/g, "+").replace(/_/g, "/")}${/[-_]/.test(s) ? "" : "+"}`));
});
