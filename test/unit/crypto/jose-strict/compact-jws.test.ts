/**
 * The shared strict compact-JWS splitting (lib/platform/crypto/jose-strict): each strictness rule on its
 * own, then the header policies of its callers side by side, then the unverified kid peek used
 * by the confirmation lockout. Signatures are not checked here (jose does that), so tokens are
 * built from raw text with a dummy signature.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CompactJwsError, payloadObject, splitCompactJws, type CompactJwsFailure, type CompactJwsPolicy } from "@/lib/platform/crypto/jose-strict/compact-jws";
import { unverifiedKid } from "@/lib/platform/crypto/jose-strict/kid";
import { DEVICE_ASSERTION_JWS_POLICY } from "@/lib/identity/devices/assertion/verify-device-assertion";
import { DEVICE_PROOF_JWS_POLICY } from "@/lib/identity/devices/registration";
import { PARTNER_QUOTE_JWS_POLICY } from "@/lib/payments/quotes/signing/compact-jws-preflight";

const b64 = (data: string | Buffer) => (typeof data === "string" ? Buffer.from(data, "utf8") : data).toString("base64url");
/** 256 bytes, like an RSA-2048 signature: 342 characters whose last carries 4 unused bits. */
const SIG = b64(Buffer.alloc(256, 7));
const HEADER = { alg: "RS256", kid: "k1", typ: "JWT" };
const PAYLOAD = '{"a":1}';

function token(header: unknown = HEADER, payload = PAYLOAD, signature = SIG): string {
  return `${b64(typeof header === "string" ? header : JSON.stringify(header))}.${b64(payload)}.${signature}`;
}

/** A test policy with every knob set, so each rule is reachable. */
const STRICT: CompactJwsPolicy = {
  algorithms: ["RS256"],
  members: { allow: ["alg", "kid", "typ"] },
  kid: "required",
  typ: "required",
  maxLength: { token: 2000, header: 200, payload: 600, signature: 400, kid: 8 },
};

function reasonOf(input: unknown, policy: CompactJwsPolicy = STRICT): CompactJwsFailure | "ok" {
  try {
    splitCompactJws(input, policy);
    return "ok";
  } catch (error) {
    assert.ok(error instanceof CompactJwsError, `expected CompactJwsError, got ${String(error)}`);
    return error.reason;
  }
}

/** The reason a token with this header (object or raw JSON text) and a good payload is refused. */
const headerRule = (header: unknown, policy: CompactJwsPolicy = STRICT) => reasonOf(token(header), policy);

describe("splitCompactJws: form", () => {
  const [h, p, s] = token().split(".") as [string, string, string];

  it("returns the header, kid, decoded payload and signature of a good token", () => {
    const parts = splitCompactJws(token(), STRICT);
    assert.deepEqual(parts.header, HEADER);
    assert.equal(parts.kid, "k1");
    assert.equal(Buffer.from(parts.payload).toString("utf8"), PAYLOAD);
    assert.deepEqual(Buffer.from(parts.signature), Buffer.alloc(256, 7));
  });

  it("refuses anything but a string", () => {
    for (const input of [undefined, null, 42, {}, [h, p, s], Buffer.from(token())]) assert.equal(reasonOf(input), "tokenType");
  });

  it("refuses a token over the size limit before reading it", () => {
    assert.equal(reasonOf(`${token()}${"A".repeat(2000)}`), "tokenSize");
  });

  it("refuses the JSON serialization", () => {
    assert.equal(reasonOf(JSON.stringify({ protected: h, payload: p, signature: s })), "jsonSerialization");
    assert.equal(reasonOf(` \n{"payload":"${p}"}`), "jsonSerialization");
  });

  it("needs exactly three segments", () => {
    for (const input of ["", "abc", `${h}.${p}`, `${h}.${p}.${s}.${s}`, `${h}.${p}.${s}.`]) assert.equal(reasonOf(input), "segmentCount");
  });

  it("refuses empty segments, each with its own reason", () => {
    assert.equal(reasonOf(`.${p}.${s}`), "headerEncoding");
    assert.equal(reasonOf(`${h}..${s}`), "payloadEncoding");
    assert.equal(reasonOf(`${h}.${p}.`), "signatureEncoding");
  });

  it("applies the per-segment size limits", () => {
    assert.equal(reasonOf(token({ ...HEADER, typ: "JWT".padEnd(200, " ") })), "headerSize");
    assert.equal(reasonOf(token(HEADER, JSON.stringify({ pad: "x".repeat(500) }))), "payloadSize");
    assert.equal(reasonOf(token(HEADER, PAYLOAD, b64(Buffer.alloc(400)))), "signatureSize");
  });
});

describe("splitCompactJws: canonical base64url in every segment", () => {
  const [h, p, s] = token().split(".") as [string, string, string];
  const sibling = (segment: string) => {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const last = segment[segment.length - 1]!;
    return segment.slice(0, -1) + alphabet[alphabet.indexOf(last) ^ 1];
  };

  it("refuses padding, whitespace and the standard alphabet", () => {
    assert.equal(reasonOf(`${h}=.${p}.${s}`), "headerEncoding");
    assert.equal(reasonOf(`${h}.${p}==.${s}`), "payloadEncoding");
    assert.equal(reasonOf(`${h}.${p}.${s}==`), "signatureEncoding");
    assert.equal(reasonOf(` ${h}.${p}.${s}`), "headerEncoding");
    assert.equal(reasonOf(`${h}.${p.slice(0, 3)}\n${p.slice(3)}.${s}`), "payloadEncoding");
    assert.equal(reasonOf(`${h}.${p}.${s.slice(0, 10)}+/${s.slice(12)}`), "signatureEncoding");
  });

  it("refuses stray trailing bits (a second spelling of the same bytes)", () => {
    const odd = sibling(s);
    assert.deepEqual(Buffer.from(odd, "base64url"), Buffer.from(s, "base64url"), "Node decodes both spellings alike");
    assert.equal(reasonOf(`${h}.${p}.${odd}`), "signatureEncoding");
    const header = b64('{"alg":"RS256","kid":"k1","typ":"JWT"}');
    assert.notEqual(header.length % 4, 0, "the header segment has unused bits to flip");
    assert.equal(reasonOf(`${sibling(header)}.${p}.${s}`), "headerEncoding");
  });
});

describe("splitCompactJws: strict JSON header", () => {
  it("refuses duplicate members, spelled alike or through escapes", () => {
    assert.equal(headerRule('{"alg":"none","kid":"k1","typ":"JWT","alg":"RS256"}'), "headerDuplicateMember");
    assert.equal(headerRule('{"alg":"RS256","kid":"k1","typ":"JWT","\\u006bid":"k2"}'), "headerDuplicateMember");
  });

  it("refuses lone surrogates, raw or escaped", () => {
    assert.equal(headerRule('{"alg":"RS256","kid":"\\ud800","typ":"JWT"}'), "headerJson");
    assert.equal(headerRule('{"alg":"RS256","kid":"k\\udc00","typ":"JWT"}'), "headerJson");
  });

  it("refuses what the RFC 8259 grammar refuses", () => {
    for (const text of [
      '{"alg":"RS256","kid":"k1","typ":"JWT",}',
      "{'alg':'RS256'}",
      '{"alg":"RS256"} x',
      '\uFEFF{"alg":"RS256","kid":"k1","typ":"JWT"}',
      "{",
    ]) {
      assert.equal(headerRule(text), "headerJson", text);
    }
  });

  it("refuses invalid UTF-8", () => {
    const bytes = Buffer.concat([Buffer.from('{"alg":"RS256","kid":"k'), Buffer.from([0xc3, 0x28]), Buffer.from('","typ":"JWT"}')]);
    assert.equal(reasonOf(`${b64(bytes)}.${b64(PAYLOAD)}.${SIG}`), "headerJson");
  });

  it("needs an object", () => {
    for (const text of ["[]", '"RS256"', "null", "1"]) assert.equal(headerRule(text), "headerJson", text);
  });
});

describe("splitCompactJws: header rules", () => {
  it("alg must be one of the policy's, spelled exactly", () => {
    for (const alg of ["none", "HS256", "RS512", "PS256", "rs256", "RS256 ", 1, null, undefined]) {
      assert.equal(headerRule({ ...HEADER, alg }), "headerAlg", String(alg));
    }
  });

  it("an allow-list refuses every other member", () => {
    for (const name of ["crit", "jwk", "b64", "cty", "zip", "anything", "__proto__"]) {
      assert.equal(headerRule(`{"alg":"RS256","kid":"k1","typ":"JWT","${name}":1}`), "headerForbiddenParameter", name);
    }
  });

  it("a deny-list refuses only its members", () => {
    const deny: CompactJwsPolicy = { ...STRICT, members: { deny: ["jwk", "crit"] } };
    assert.equal(headerRule({ ...HEADER, jwk: {} }, deny), "headerForbiddenParameter");
    assert.equal(headerRule({ ...HEADER, crit: ["exp"] }, deny), "headerForbiddenParameter");
    assert.equal(headerRule({ ...HEADER, cty: "JWT" }, deny), "ok");
  });

  it("kid: required, a non-empty string within the policy's length", () => {
    for (const kid of [undefined, "", 42, ["k1"], "k".repeat(9)]) assert.equal(headerRule({ ...HEADER, kid }), "headerKid", String(kid));
    assert.equal(headerRule({ ...HEADER, kid: "k".repeat(8) }), "ok");
  });

  it("kid: optional may be absent, but not malformed when present", () => {
    const optional: CompactJwsPolicy = { ...STRICT, kid: "optional" };
    assert.equal(headerRule({ alg: "RS256", typ: "JWT" }, optional), "ok");
    assert.equal(splitCompactJws(token({ alg: "RS256", typ: "JWT" }), optional).kid, undefined);
    for (const kid of ["", 42, "k".repeat(9)]) assert.equal(headerRule({ ...HEADER, kid }, optional), "headerKid", String(kid));
  });

  it("typ: required means exactly JWT; optional means JWT when present", () => {
    const optional: CompactJwsPolicy = { ...STRICT, typ: "optional" };
    assert.equal(headerRule({ alg: "RS256", kid: "k1" }), "headerTyp");
    assert.equal(headerRule({ alg: "RS256", kid: "k1" }, optional), "ok");
    for (const typ of ["jwt", "JOSE", "at+jwt", 1, null]) {
      assert.equal(headerRule({ ...HEADER, typ }), "headerTyp", String(typ));
      assert.equal(headerRule({ ...HEADER, typ }, optional), "headerTyp", String(typ));
    }
  });

  it("checks alg, then members, then kid, then typ", () => {
    assert.equal(headerRule({ alg: "none", kid: "", typ: "x", jwk: {} }), "headerAlg");
    assert.equal(headerRule({ alg: "RS256", kid: "", typ: "x", jwk: {} }), "headerForbiddenParameter");
    assert.equal(headerRule({ alg: "RS256", kid: "", typ: "x" }), "headerKid");
  });
});

describe("the callers' header policies", () => {
  const policies = { quote: PARTNER_QUOTE_JWS_POLICY, assertion: DEVICE_ASSERTION_JWS_POLICY, proof: DEVICE_PROOF_JWS_POLICY };
  const cases: { header: Record<string, unknown>; quote: string; assertion: string; proof: string }[] = [
    { header: { alg: "RS256", kid: "k1", typ: "JWT" }, quote: "ok", assertion: "ok", proof: "ok" },
    { header: { alg: "RS256", kid: "k1" }, quote: "ok", assertion: "headerTyp", proof: "ok" },
    { header: { alg: "RS256", typ: "JWT" }, quote: "headerKid", assertion: "headerKid", proof: "ok" },
    { header: { alg: "RS256" }, quote: "headerKid", assertion: "headerKid", proof: "ok" },
    { header: { alg: "RS256", kid: "k1", typ: "JWT", cty: "JWT" }, quote: "ok", assertion: "headerForbiddenParameter", proof: "headerForbiddenParameter" },
    { header: { alg: "RS256", kid: "k1", typ: "JWT", zip: "DEF" }, quote: "ok", assertion: "headerForbiddenParameter", proof: "headerForbiddenParameter" },
    { header: { alg: "HS256", kid: "k1", typ: "JWT" }, quote: "headerAlg", assertion: "headerAlg", proof: "headerAlg" },
    { header: { alg: "RS256", kid: "k".repeat(257), typ: "JWT" }, quote: "ok", assertion: "headerKid", proof: "headerKid" },
  ];
  for (const name of ["crit", "x5c", "x5t", "x5t#S256", "x5u", "jku", "jwk", "b64"]) {
    cases.push({
      header: { alg: "RS256", kid: "k1", typ: "JWT", [name]: name === "b64" ? false : ["x"] },
      quote: "headerForbiddenParameter",
      assertion: "headerForbiddenParameter",
      proof: "headerForbiddenParameter",
    });
  }
  for (const { header, ...expected } of cases) {
    it(`${JSON.stringify(header).slice(0, 70)}: quote ${expected.quote}, assertion ${expected.assertion}, proof ${expected.proof}`, () => {
      for (const [caller, policy] of Object.entries(policies)) {
        assert.equal(reasonOf(token(header), policy), expected[caller as keyof typeof expected], caller);
      }
    });
  }

  it("quotes allow 16 kB tokens and 2 kB headers; device tokens 8 kB, segments bounded", () => {
    const bigPayload = JSON.stringify({ pad: "x".repeat(4000) });
    assert.equal(reasonOf(token(HEADER, bigPayload), PARTNER_QUOTE_JWS_POLICY), "ok");
    assert.equal(reasonOf(token(HEADER, bigPayload), DEVICE_ASSERTION_JWS_POLICY), "payloadSize");
    const bigHeader = { ...HEADER, typ: "JWT", x: "y".repeat(1000) };
    assert.equal(reasonOf(token(bigHeader), PARTNER_QUOTE_JWS_POLICY), "ok");
    assert.equal(reasonOf(token(bigHeader), DEVICE_PROOF_JWS_POLICY), "headerSize");
  });
});

describe("payloadObject", () => {
  const payloadOf = (text: string) => payloadObject(splitCompactJws(token(HEADER, text), STRICT));

  it("returns a strict JSON object", () => {
    assert.deepEqual(payloadOf('{"a":1,"b":[true,null]}'), { a: 1, b: [true, null] });
  });

  it("is undefined for duplicates, lone surrogates, bad grammar and non-objects", () => {
    for (const text of ['{"a":1,"a":2}', '{"n":"\\ud800"}', '{"a":1,}', "[1]", "null", '"x"', "\uFEFF{}", "not json"]) {
      assert.equal(payloadOf(text), undefined, text);
    }
  });
});

describe("unverifiedKid", () => {
  it("reads the kid whatever the rest of the header or token", () => {
    assert.equal(unverifiedKid(token()), "k1");
    assert.equal(unverifiedKid(token({ alg: "none", kid: "k2", jwk: {} })), "k2");
    assert.equal(unverifiedKid(`${b64(JSON.stringify(HEADER))}.garbage`), "k1");
    assert.equal(unverifiedKid(b64(JSON.stringify(HEADER))), "k1");
  });

  it("reads it strictly: no kid where the strict reader sees no single header", () => {
    const [h] = token().split(".") as [string];
    for (const input of [
      token('{"alg":"RS256","kid":"k1","kid":"k2"}'),
      token('{"alg":"RS256","kid":"\\ud800"}'),
      `${h}=.x.y`,
      ` ${h}.x.y`,
      token({ alg: "RS256" }),
      token({ alg: "RS256", kid: "" }),
      token({ alg: "RS256", kid: 7 }),
      token("[]"),
      token({ alg: "RS256", kid: "k1", pad: "x".repeat(3000) }),
      "",
      undefined,
      42,
    ]) {
      assert.equal(unverifiedKid(input), null, String(input).slice(0, 60));
    }
  });
});
