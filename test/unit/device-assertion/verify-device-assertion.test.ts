import assert from "node:assert/strict";
import { constants, createHash, createPublicKey, createHmac, generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { describe, it } from "node:test";
import fc from "fast-check";
import { CompactSign, type JWK } from "jose";
import { DomainError } from "@/lib/platform/errors";
import {
  verifyDeviceAssertion,
  type AssertionDevice,
  type AssertionFailedCheck,
  type DeviceAssertionInput,
} from "@/lib/identity/devices/assertion/verify-device-assertion";

// ---- fixtures: keys generated once per file ---------------------------------------------------

interface TestDevice extends AssertionDevice {
  kid: string;
  privateKey: KeyObject;
}

/** kid as registration allocates it: the RFC 7638 thumbprint (members e, kty, n in that order). */
function thumbprint(jwk: JWK): string {
  return createHash("sha256")
    .update(JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n }))
    .digest("base64url");
}

function makeDevice(deviceId: string, customerRef: string, status: AssertionDevice["status"] = "ACTIVE", modulusLength = 2048): TestDevice {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength });
  const publicJwk = publicKey.export({ format: "jwk" }) as JWK;
  return { deviceId, customerRef, status, publicJwk, privateKey, kid: thumbprint(publicJwk) };
}

const deviceA = makeDevice("dev_A", "cus_1");
const deviceB = makeDevice("dev_B", "cus_1"); // same customer, another device
const deviceC = makeDevice("dev_C", "cus_2"); // another customer's device
const deviceOff = makeDevice("dev_OFF", "cus_1", "DEACTIVATED");
const deviceWeak = makeDevice("dev_WEAK", "cus_1", "ACTIVE", 1024);
const devices = [deviceA, deviceB, deviceC, deviceOff, deviceWeak];

const NOW = new Date("2026-03-01T12:00:00.250Z");
const NOW_S = Math.floor(NOW.getTime() / 1000);
const CHALLENGE = "chl_3q2-latest";

const transfer = { transferId: "trf_123", amount: "100.000000", currency: "USD", beneficiaryId: "ben_9" };

function input(overrides: Partial<DeviceAssertionInput> = {}): DeviceAssertionInput {
  return {
    findDeviceByKid: async (kid) => {
      const found = devices.find((d) => d.kid === kid);
      return found ? { deviceId: found.deviceId, customerRef: found.customerRef, status: found.status, publicJwk: found.publicJwk } : null;
    },
    customerRef: "cus_1",
    transfer,
    latestChallenge: CHALLENGE,
    now: NOW,
    maxAgeSeconds: 60,
    ...overrides,
  };
}

function claims(device: TestDevice = deviceA, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    transfer_id: transfer.transferId,
    amount: transfer.amount,
    currency: transfer.currency,
    beneficiary_id: transfer.beneficiaryId,
    device_id: device.deviceId,
    nonce: "nonce-0001",
    challenge: CHALLENGE,
    iat: NOW_S,
    ...overrides,
  };
}

const b64 = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");

function createPublicPem(device: TestDevice): string {
  return createPublicKey(device.privateKey).export({ type: "spki", format: "pem" }).toString();
}

type Alg = "RS256" | "RS512" | "PS256";
function rsaSign(alg: Alg, key: KeyObject, signingInput: string): string {
  if (alg === "PS256") {
    return sign("sha256", Buffer.from(signingInput), { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }).toString("base64url");
  }
  return sign(alg === "RS256" ? "sha256" : "sha512", Buffer.from(signingInput), key).toString("base64url");
}

/** Header and payload as objects or raw JSON text, signed with RS256 (or another alg) by `signer`. */
function jws(options: { header?: unknown; payload?: unknown; signer?: TestDevice; alg?: Alg } = {}): string {
  const signer = options.signer ?? deviceA;
  const header = options.header ?? { alg: "RS256", kid: signer.kid, typ: "JWT" };
  const signingInput = `${b64(header)}.${b64(options.payload ?? claims(signer))}`;
  return `${signingInput}.${rsaSign(options.alg ?? "RS256", signer.privateKey, signingInput)}`;
}

async function failsCheck(token: unknown, failedCheck: AssertionFailedCheck, overrides: Partial<DeviceAssertionInput> = {}) {
  await assert.rejects(verifyDeviceAssertion(token as string, input(overrides)), (error: unknown) => {
    assert.ok(error instanceof DomainError, `expected DomainError, got ${String(error)}`);
    assert.equal(error.code, "device.assertionInvalid");
    assert.equal(error.status, 422);
    assert.deepEqual(error.details, { failedCheck });
    return true;
  });
}

async function failsWithCode(token: string, code: string, status: number, overrides: Partial<DeviceAssertionInput> = {}) {
  await assert.rejects(verifyDeviceAssertion(token, input(overrides)), (error: unknown) => {
    assert.ok(error instanceof DomainError);
    assert.equal(error.code, code);
    assert.equal(error.status, status);
    return true;
  });
}

// ---- tests --------------------------------------------------------------------------------------

describe("device assertion: the happy path", () => {
  it("returns the device and the nonce", async () => {
    assert.deepEqual(await verifyDeviceAssertion(jws(), input()), { deviceId: "dev_A", nonce: "nonce-0001" });
  });

  it("accepts a token made by jose's own signer", async () => {
    const token = await new CompactSign(new TextEncoder().encode(JSON.stringify(claims())))
      .setProtectedHeader({ alg: "RS256", kid: deviceA.kid, typ: "JWT" })
      .sign(deviceA.privateKey);
    assert.equal((await verifyDeviceAssertion(token, input())).deviceId, "dev_A");
  });

  it("ignores private or extra members in the stored JWK", async () => {
    const withPrivate = { ...(deviceA.privateKey.export({ format: "jwk" }) as JWK), alg: "PS256", use: "enc" };
    const result = await verifyDeviceAssertion(
      jws(),
      input({ findDeviceByKid: async () => ({ deviceId: "dev_A", customerRef: "cus_1", status: "ACTIVE", publicJwk: withPrivate }) }),
    );
    assert.equal(result.deviceId, "dev_A");
  });
});

describe("device assertion: algorithm attacks", () => {
  it("alg none (unsigned) fails", async () => {
    const header = b64({ alg: "none", kid: deviceA.kid, typ: "JWT" });
    await failsCheck(`${header}.${b64(claims())}.`, "signature");
    await failsCheck(`${header}.${b64(claims())}`, "signature");
    // "none" with a signature attached still fails on the header.
    const h = { alg: "none", kid: deviceA.kid, typ: "JWT" };
    const signingInput = `${b64(h)}.${b64(claims())}`;
    await failsCheck(`${signingInput}.${rsaSign("RS256", deviceA.privateKey, signingInput)}`, "signature");
  });

  it("HS256 with the device's public key as the HMAC secret fails", async () => {
    const header = { alg: "HS256", kid: deviceA.kid, typ: "JWT" };
    const signingInput = `${b64(header)}.${b64(claims())}`;
    const publicPem = createPublicPem(deviceA);
    for (const secret of [publicPem, JSON.stringify(deviceA.publicJwk), deviceA.publicJwk.n!]) {
      const mac = createHmac("sha256", secret).update(signingInput).digest("base64url");
      await failsCheck(`${signingInput}.${mac}`, "signature");
    }
  });

  it("PS256 and RS512 signed with the device's own key fail", async () => {
    for (const alg of ["PS256", "RS512"] as const) {
      await failsCheck(jws({ header: { alg, kid: deviceA.kid, typ: "JWT" }, alg }), "signature");
      // And an RS256 header over a PS256/RS512 signature fails the signature itself.
      await failsCheck(jws({ alg }), "signature");
    }
  });

  it("other alg spellings fail", async () => {
    for (const alg of ["rs256", "RS256 ", "ES256", "EdDSA", null, 256]) {
      await failsCheck(jws({ header: { alg, kid: deviceA.kid, typ: "JWT" } }), "signature");
    }
    await failsCheck(jws({ header: { kid: deviceA.kid, typ: "JWT" } }), "signature");
  });

  it("a key shorter than 2048 bits is refused even with a valid RS256 signature", async () => {
    await failsCheck(jws({ signer: deviceWeak }), "signature");
  });
});

describe("device assertion: key and device confusion", () => {
  it("signed by another device's key while naming this device_id fails", async () => {
    // kid and key of device B, claims say device A: the key is B's, so device_id must be dev_B.
    await failsCheck(jws({ signer: deviceB, payload: claims(deviceB, { device_id: deviceA.deviceId }) }), "signature");
  });

  it("signed by another device's key under this device's kid fails", async () => {
    const header = { alg: "RS256", kid: deviceA.kid, typ: "JWT" };
    const signingInput = `${b64(header)}.${b64(claims(deviceA))}`;
    await failsCheck(`${signingInput}.${rsaSign("RS256", deviceB.privateKey, signingInput)}`, "signature");
  });

  it("a kid matching no device is device.notRegistered (412)", async () => {
    await failsWithCode(jws({ header: { alg: "RS256", kid: "no-such-kid", typ: "JWT" } }), "device.notRegistered", 412);
    const stranger = makeDevice("dev_X", "cus_1");
    await failsWithCode(jws({ signer: stranger }), "device.notRegistered", 412);
  });

  it("a deactivated device is device.deactivated (412)", async () => {
    await failsWithCode(jws({ signer: deviceOff }), "device.deactivated", 412);
  });

  it("a device of another customer fails customerBinding", async () => {
    await failsCheck(jws({ signer: deviceC }), "customerBinding");
    // The same token is fine for its own customer.
    assert.equal((await verifyDeviceAssertion(jws({ signer: deviceC }), input({ customerRef: "cus_2" }))).deviceId, "dev_C");
  });

  it("a stored key that cannot be imported fails signature", async () => {
    const broken = input({ findDeviceByKid: async () => ({ deviceId: "dev_A", customerRef: "cus_1", status: "ACTIVE", publicJwk: { kty: "EC" } }) });
    await assert.rejects(
      verifyDeviceAssertion(jws(), broken),
      (e: unknown) => e instanceof DomainError && (e.details as { failedCheck: string }).failedCheck === "signature",
    );
  });

  it("a database failure in findDeviceByKid is passed through, not counted as a bad assertion", async () => {
    const dbError = new Error("connection lost");
    await assert.rejects(
      verifyDeviceAssertion(
        jws(),
        input({
          findDeviceByKid: async () => {
            throw dbError;
          },
        }),
      ),
      (e) => e === dbError,
    );
  });
});

describe("device assertion: transfer match (exact strings)", () => {
  const cases: [string, unknown][] = [
    ["transfer_id", "trf_124"],
    ["amount", "100.0"],
    ["amount", "100.00000"],
    ["amount", "100.0000000"],
    ["amount", 100],
    ["currency", "usd"],
    ["currency", "EUR"],
    ["beneficiary_id", "ben_8"],
    ["beneficiary_id", null],
  ];
  for (const [claim, value] of cases) {
    it(`${claim} = ${JSON.stringify(value)} fails transferMatch`, async () => {
      await failsCheck(jws({ payload: claims(deviceA, { [claim]: value }) }), "transferMatch");
    });
  }
});

describe("device assertion: freshness", () => {
  it("iat 59 s in the past or future passes, 60 s passes", async () => {
    for (const offset of [-59, 59, -60, 60]) {
      const result = await verifyDeviceAssertion(jws({ payload: claims(deviceA, { iat: NOW_S + offset }) }), input());
      assert.equal(result.deviceId, "dev_A", `offset ${offset}`);
    }
  });

  it("iat 61 s in the past or future fails", async () => {
    await failsCheck(jws({ payload: claims(deviceA, { iat: NOW_S - 61 }) }), "freshness");
    await failsCheck(jws({ payload: claims(deviceA, { iat: NOW_S + 61 }) }), "freshness");
  });

  it("honours maxAgeSeconds from configuration", async () => {
    const token = jws({ payload: claims(deviceA, { iat: NOW_S - 20 }) });
    await failsCheck(token, "freshness", { maxAgeSeconds: 10 });
    assert.ok(await verifyDeviceAssertion(token, input({ maxAgeSeconds: 30 })));
  });

  it("iat must be an integer number of seconds", async () => {
    for (const iat of [String(NOW_S), NOW_S + 0.5, NOW.getTime(), null, 1e300]) {
      await failsCheck(jws({ payload: claims(deviceA, { iat }) }), "freshness");
    }
  });

  it("nonce must be a non-empty string of at most 128 characters", async () => {
    for (const nonce of ["", 12345, null, "n".repeat(129)]) {
      await failsCheck(jws({ payload: claims(deviceA, { nonce }) }), "freshness");
    }
    assert.equal((await verifyDeviceAssertion(jws({ payload: claims(deviceA, { nonce: "n".repeat(128) }) }), input())).nonce, "n".repeat(128));
  });
});

describe("device assertion: challenge", () => {
  it("a stale challenge fails", async () => {
    await failsCheck(jws({ payload: claims(deviceA, { challenge: "chl_older" }) }), "challenge");
  });

  it("fails when no challenge is outstanding", async () => {
    await failsCheck(jws(), "challenge", { latestChallenge: null });
  });

  it("compares exactly", async () => {
    for (const challenge of [CHALLENGE.toUpperCase(), `${CHALLENGE} `, CHALLENGE.slice(0, -1), ["chl"], null]) {
      await failsCheck(jws({ payload: claims(deviceA, { challenge }) }), "challenge");
    }
  });
});

describe("device assertion: missing claims", () => {
  const expected: Record<string, AssertionFailedCheck> = {
    device_id: "signature",
    transfer_id: "transferMatch",
    amount: "transferMatch",
    currency: "transferMatch",
    beneficiary_id: "transferMatch",
    iat: "freshness",
    nonce: "freshness",
    challenge: "challenge",
  };
  for (const [claim, failedCheck] of Object.entries(expected)) {
    it(`without ${claim} fails ${failedCheck}`, async () => {
      const payload = claims();
      delete payload[claim];
      await failsCheck(jws({ payload }), failedCheck);
    });
  }

  it("an empty payload fails", async () => {
    await failsCheck(jws({ payload: {} }), "signature");
  });
});

describe("device assertion: header rules", () => {
  const base = { alg: "RS256", kid: deviceA.kid, typ: "JWT" };
  it("typ is required and must be JWT", async () => {
    await failsCheck(jws({ header: { alg: "RS256", kid: deviceA.kid } }), "signature");
    for (const typ of ["jwt", "JOSE", "at+jwt", 1]) await failsCheck(jws({ header: { ...base, typ } }), "signature");
  });

  it("kid is required and must be a non-empty string", async () => {
    for (const kid of [undefined, "", 42, ["x"], "k".repeat(257)]) {
      await failsCheck(jws({ header: { alg: "RS256", kid, typ: "JWT" } }), "signature");
    }
  });

  it("crit, jwk, jku, x5c, x5u, x5t, x5t#S256, b64 and any other member are refused", async () => {
    const extras: Record<string, unknown> = {
      crit: ["b64"],
      jwk: deviceA.publicJwk,
      jku: "https://evil.example/jwks.json",
      x5c: ["MIIB"],
      x5u: "https://evil.example/cert.pem",
      x5t: "abc",
      "x5t#S256": "abc",
      b64: false,
      cty: "JWT",
      zip: "DEF",
    };
    for (const [name, value] of Object.entries(extras)) {
      await failsCheck(jws({ header: { ...base, [name]: value } }), "signature");
    }
  });

  it("duplicate header members are refused even when correctly signed", async () => {
    const raw = `{"alg":"none","kid":"${deviceA.kid}","typ":"JWT","alg":"RS256"}`;
    await failsCheck(jws({ header: raw }), "signature");
    const escaped = `{"alg":"RS256","kid":"${deviceA.kid}","typ":"JWT","\\u0061lg":"RS256"}`;
    await failsCheck(jws({ header: escaped }), "signature");
  });

  it("duplicate payload members are refused even when correctly signed", async () => {
    const text = JSON.stringify(claims()).replace(/}$/, ',"amount":"1.000000"}');
    await failsCheck(jws({ payload: text }), "signature");
  });

  it("non-object header or payload is refused", async () => {
    await failsCheck(jws({ header: "[]" }), "signature");
    await failsCheck(jws({ header: '"RS256"' }), "signature");
    await failsCheck(jws({ payload: "[1,2]" }), "signature");
    await failsCheck(jws({ payload: "null" }), "signature");
    await failsCheck(jws({ payload: "not json" }), "signature");
  });

  it("lone surrogates in the header or payload are refused (JSON.parse would accept them)", async () => {
    // Before the shared strict toolkit these passed JSON.parse: the nonce below verified, the kid became a 412.
    const payload = JSON.stringify(claims()).replace('"nonce-0001"', '"nonce-\\ud800"');
    await failsCheck(jws({ payload }), "signature");
    await failsCheck(jws({ header: `{"alg":"RS256","kid":"\\udc00${deviceA.kid}","typ":"JWT"}` }), "signature");
  });

  it("a BOM or invalid UTF-8 in the header is refused", async () => {
    await failsCheck(jws({ header: `\uFEFF${JSON.stringify(base)}` }), "signature");
    const badUtf8 = Buffer.concat([Buffer.from(JSON.stringify(base).slice(0, -1)), Buffer.from(',"x":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    const signingInput = `${badUtf8.toString("base64url")}.${b64(claims())}`;
    await failsCheck(`${signingInput}.${rsaSign("RS256", deviceA.privateKey, signingInput)}`, "signature");
  });
});

describe("device assertion: malformed tokens", () => {
  const good = jws();
  const [h, p, s] = good.split(".") as [string, string, string];

  it("two segments, four segments and empty segments fail", async () => {
    for (const token of [`${h}.${p}`, `${h}.${p}.${s}.${s}`, `${h}..${s}`, `.${p}.${s}`, `${h}.${p}.`, "..", ""]) {
      await failsCheck(token, "signature");
    }
  });

  it("padding fails", async () => {
    await failsCheck(`${h}.${p}.${s}==`, "signature");
    await failsCheck(`${h}=.${p}.${s}`, "signature");
  });

  it("whitespace anywhere fails", async () => {
    for (const token of [` ${good}`, `${good}\n`, `${h}. ${p}.${s}`, `${h}.${p.slice(0, 10)}\n${p.slice(10)}.${s}`]) {
      await failsCheck(token, "signature");
    }
  });

  it("standard base64 characters fail", async () => {
    await failsCheck(`${h}.${p}.${s.replace(/-/g, "+").replace(/_/g, "/")}${/[-_]/.test(s) ? "" : "+"}`, "signature");
  });

  it("non-canonical base64url (stray trailing bits) fails", async () => {
    // A 256-byte signature encodes to 342 characters whose last one carries 4 unused bits.
    const last = s[s.length - 1]!;
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const sibling = alphabet[alphabet.indexOf(last) ^ 1]!;
    assert.deepEqual(Buffer.from(s.slice(0, -1) + sibling, "base64url"), Buffer.from(s, "base64url"));
    await failsCheck(`${h}.${p}.${s.slice(0, -1)}${sibling}`, "signature");
  });

  it("JSON serialization fails", async () => {
    await failsCheck(JSON.stringify({ protected: h, payload: p, signature: s }), "signature");
    await failsCheck(JSON.stringify({ payload: p, signatures: [{ protected: h, signature: s }] }), "signature");
  });

  it("oversized tokens and segments fail before any lookup", async () => {
    let looked = false;
    const spy = input({ findDeviceByKid: async () => ((looked = true), null) });
    const bigPayload = jws({ payload: claims(deviceA, { pad: "x".repeat(5000) }) });
    await assert.rejects(verifyDeviceAssertion(bigPayload, spy), (e: unknown) => e instanceof DomainError && e.code === "device.assertionInvalid");
    await assert.rejects(
      verifyDeviceAssertion(`${h}.${p}.${s}${"A".repeat(9000)}`, spy),
      (e: unknown) => e instanceof DomainError && e.code === "device.assertionInvalid",
    );
    assert.equal(looked, false);
  });

  it("non-string input fails", async () => {
    for (const token of [undefined, null, 42, {}, ["a", "b", "c"]]) await failsCheck(token, "signature");
  });

  it("a flipped character in the payload or signature fails", async () => {
    const flip = (seg: string, i: number) => seg.slice(0, i) + (seg[i] === "A" ? "B" : "A") + seg.slice(i + 1);
    await failsCheck(`${h}.${p}.${flip(s, 10)}`, "signature");
    await failsCheck(`${h}.${flip(p, 10)}.${s}`, "signature");
  });

  it("any input whatsoever ends in a DomainError of a device code", async () => {
    const codes = new Set(["device.assertionInvalid", "device.notRegistered", "device.deactivated"]);
    const mutate = fc.tuple(fc.nat(good.length - 1), fc.constantFrom(...'A_-.= \n{}"/+')).map(([i, c]) => good.slice(0, i) + c + good.slice(i + 1));
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.string({ unit: "binary" }), mutate), async (token) => {
        try {
          await verifyDeviceAssertion(token, input());
          return token === good;
        } catch (error) {
          return error instanceof DomainError && codes.has(error.code);
        }
      }),
      { numRuns: 300 },
    );
  });
});
