import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import fc from "fast-check";
import { DomainError } from "@/lib/platform/errors";
import { canonicalJson } from "@/lib/payments/quotes/signing/jcs";
import { REQUIRED_QUOTE_CLAIMS } from "@/lib/payments/quotes/signing/quote-claims";
import { signQuoteClaims } from "@/lib/payments/quotes/signing/sign-quote";
import { verifyPartnerQuote, type PartnerQuoteClaims, type VerifyPartnerQuoteInput } from "@/lib/payments/quotes/signing/verify-partner-quote";
import { assertRejects, b64u, isoSeconds, KID, NOW, NOW_S, publicJwk, rawToken, rsaKeyPair, validClaims, withSegment, type Expected } from "./helpers";

// One key pair per file: RSA generation dominates the run time.
const { publicKey, privateKey } = rsaKeyPair(2048);
const other = rsaKeyPair(2048);
const weak = rsaKeyPair(1024);

const JWKS = { keys: [publicJwk(publicKey)] };
const input = (overrides: Partial<VerifyPartnerQuoteInput> = {}): VerifyPartnerQuoteInput => ({
  jwks: JWKS,
  now: NOW,
  maxTtlSeconds: 60,
  ...overrides,
});

/** A token signed correctly over exactly this payload text (canonical or not). */
const signedText = (payload: string) => rawToken({ payload, privateKey });
const canonicalClaimsText = () => canonicalJson(validClaims());

let good: string;
before(() => {
  good = rawToken({ privateKey });
});

interface Attack extends Expected {
  name: string;
  token: () => string | Promise<string>;
  input?: Partial<VerifyPartnerQuoteInput>;
}

const SIG = "quote.signatureInvalid";
const INVALID = "quote.invalid";

const formatAttacks: Attack[] = [
  {
    name: "tampered payload (claim changed, signature kept)",
    token: () => withSegment(good, 1, () => b64u(canonicalJson(validClaims({ send_amount: "1.00" })))),
    code: SIG,
    failedCheck: "signature",
  },
  {
    name: "tampered signature (first character changed)",
    token: () => withSegment(good, 2, (s) => (s[0] === "A" ? "B" : "A") + s.slice(1)),
    code: SIG,
    failedCheck: "signature",
  },
  {
    name: "signature from a different key under the right kid",
    token: () => rawToken({ privateKey: other.privateKey }),
    code: SIG,
    failedCheck: "signature",
  },
  {
    name: "alg none with empty signature",
    token: () => rawToken({ header: { alg: "none", kid: KID }, privateKey, alg: "none" }),
    code: SIG,
    failedCheck: "headerAlg",
  },
  {
    name: "HS256 with the public key PEM as HMAC secret",
    token: () =>
      rawToken({
        header: { alg: "HS256", kid: KID, typ: "JWT" },
        privateKey,
        alg: "HS256",
        hmacSecret: publicKey.export({ format: "pem", type: "spki" }) as string,
      }),
    code: SIG,
    failedCheck: "headerAlg",
  },
  {
    name: "RS512 signed by the same key",
    token: () => rawToken({ header: { alg: "RS512", kid: KID, typ: "JWT" }, privateKey, alg: "RS512" }),
    code: SIG,
    failedCheck: "headerAlg",
  },
  {
    name: "PS256 signed by the same key",
    token: () => rawToken({ header: { alg: "PS256", kid: KID, typ: "JWT" }, privateKey, alg: "PS256" }),
    code: SIG,
    failedCheck: "headerAlg",
  },
  {
    name: "alg in lower case",
    token: () => rawToken({ header: { alg: "rs256", kid: KID }, privateKey }),
    code: SIG,
    failedCheck: "headerAlg",
  },
  {
    name: "alg absent",
    token: () => rawToken({ header: { kid: KID }, privateKey }),
    code: SIG,
    failedCheck: "headerAlg",
  },
  ...(
    [
      ["jwk", publicJwk(publicKey)],
      ["jku", "https://attacker.example/jwks.json"],
      ["x5c", ["MIIB"]],
      ["x5u", "https://attacker.example/cert.pem"],
      ["x5t", "dGh1bWI"],
      ["x5t#S256", "dGh1bWI"],
      ["crit", ["exp"]],
    ] as const
  ).map(([param, value]): Attack => ({
    name: `header with ${param}`,
    token: () => rawToken({ header: { alg: "RS256", kid: KID, typ: "JWT", [param]: value }, privateKey }),
    code: SIG,
    failedCheck: "headerForbiddenParameter",
  })),
  {
    name: 'unencoded payload header {"b64":false,"crit":["b64"]}',
    token: () => rawToken({ header: { alg: "RS256", kid: KID, b64: false, crit: ["b64"] }, privateKey }),
    code: SIG,
    failedCheck: "headerForbiddenParameter",
  },
  {
    name: 'header with b64 alone ({"b64":true}, no crit)',
    token: () => rawToken({ header: { alg: "RS256", kid: KID, b64: true }, privateKey }),
    code: SIG,
    failedCheck: "headerForbiddenParameter",
  },
  {
    name: "kid absent",
    token: () => rawToken({ header: { alg: "RS256", typ: "JWT" }, privateKey }),
    code: SIG,
    failedCheck: "headerKid",
  },
  {
    name: "kid empty",
    token: () => rawToken({ header: { alg: "RS256", kid: "" }, privateKey }),
    code: SIG,
    failedCheck: "headerKid",
  },
  {
    name: "kid not a string",
    token: () => rawToken({ header: { alg: "RS256", kid: 1 }, privateKey }),
    code: SIG,
    failedCheck: "headerKid",
  },
  {
    name: "unknown kid",
    token: () => rawToken({ header: { alg: "RS256", kid: "someone-else", typ: "JWT" }, privateKey }),
    code: SIG,
    failedCheck: "keyNotFound",
  },
  {
    name: "typ other than JWT",
    token: () => rawToken({ header: { alg: "RS256", kid: KID, typ: "JOSE" }, privateKey }),
    code: SIG,
    failedCheck: "headerTyp",
  },
  {
    name: "duplicate member names in the header (alg none then RS256)",
    token: () => rawToken({ header: `{"alg":"none","alg":"RS256","kid":"${KID}","typ":"JWT"}`, privateKey }),
    code: SIG,
    failedCheck: "headerDuplicateMember",
  },
  {
    name: "header is not an object",
    token: () => rawToken({ header: `["RS256"]`, privateKey }),
    code: SIG,
    failedCheck: "headerJson",
  },
  {
    name: "header is not JSON",
    token: () => rawToken({ header: `{alg:RS256}`, privateKey }),
    code: SIG,
    failedCheck: "headerJson",
  },
  {
    name: "header with a lone surrogate",
    token: () => rawToken({ header: `{"alg":"RS256","kid":"${KID}","x":"\\ud800"}`, privateKey }),
    code: SIG,
    failedCheck: "headerJson",
  },
  {
    name: "JWS JSON serialization",
    token: () => {
      const [protectedHeader, payload, signature] = good.split(".");
      return JSON.stringify({ protected: protectedHeader, payload, signature });
    },
    code: SIG,
    failedCheck: "jsonSerialization",
  },
  { name: "two segments", token: () => good.split(".").slice(0, 2).join("."), code: SIG, failedCheck: "segmentCount" },
  { name: "four segments", token: () => `${good}.AAAA`, code: SIG, failedCheck: "segmentCount" },
  { name: "compact JWE (five segments)", token: () => "eyJ.a.b.c.d", code: SIG, failedCheck: "segmentCount" },
  { name: "empty string", token: () => "", code: SIG, failedCheck: "segmentCount" },
  {
    name: "64 kB header",
    token: () => rawToken({ header: { alg: "RS256", kid: KID, typ: "JWT", pad: "x".repeat(64 * 1024) }, privateKey }),
    code: SIG,
    failedCheck: "tokenSize",
  },
  {
    name: "3 kB header (token under the total limit)",
    token: () => rawToken({ header: { alg: "RS256", kid: KID, typ: "JWT", pad: "x".repeat(3 * 1024) }, privateKey }),
    code: SIG,
    failedCheck: "headerSize",
  },
  { name: "empty header segment", token: () => withSegment(good, 0, () => ""), code: SIG, failedCheck: "headerEncoding" },
  { name: "empty payload segment", token: () => withSegment(good, 1, () => ""), code: SIG, failedCheck: "payloadEncoding" },
  { name: "empty signature segment", token: () => withSegment(good, 2, () => ""), code: SIG, failedCheck: "signatureEncoding" },
  {
    name: "standard base64 alphabet (+ and /) in the signature",
    token: () => withSegment(good, 2, (s) => Buffer.from(s, "base64url").toString("base64").replace(/=+$/, "")),
    code: SIG,
    failedCheck: "signatureEncoding",
  },
  {
    name: "non-zero trailing bits in the signature's last character",
    // A 256-byte signature ends in a character carrying 4 data bits and 2 unused ones.
    token: () =>
      withSegment(good, 2, (s) => {
        const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        const last = alphabet.indexOf(s[s.length - 1]!);
        return s.slice(0, -1) + alphabet[last | 1];
      }),
    code: SIG,
    failedCheck: "signatureEncoding",
  },
  {
    name: "payload is not UTF-8 (CESU-8 surrogate)",
    token: () => rawToken({ payload: Uint8Array.from([0x7b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x3a, 0x31, 0x7d]), privateKey }),
    code: SIG,
    failedCheck: "payloadUtf8",
  },
  { name: "payload is not JSON", token: () => signedText("quote"), code: SIG, failedCheck: "payloadJson" },
  {
    name: "payload with whitespace",
    token: () => signedText(JSON.stringify(JSON.parse(canonicalClaimsText()), null, 1)),
    code: SIG,
    failedCheck: "payloadNotCanonical",
  },
  {
    name: "payload with one space after a colon",
    token: () => signedText(canonicalClaimsText().replace('"jti":', '"jti": ')),
    code: SIG,
    failedCheck: "payloadNotCanonical",
  },
  {
    name: "payload with unsorted keys",
    token: () => signedText(JSON.stringify(validClaims())),
    code: SIG,
    failedCheck: "payloadNotCanonical",
  },
  {
    name: "payload with 42.0 for a number",
    token: () => signedText(canonicalClaimsText().replace('"partner_quote_seq":42', '"partner_quote_seq":42.0')),
    code: SIG,
    failedCheck: "payloadNotCanonical",
  },
  {
    name: "payload with escaped unicode \\u0071 for q",
    token: () => signedText(canonicalClaimsText().replace('"quote_id":"q-0001"', '"quote_id":"\\u0071-0001"')),
    code: SIG,
    failedCheck: "payloadNotCanonical",
  },
  {
    name: "payload with a trailing newline",
    token: () => signedText(`${canonicalClaimsText()}\n`),
    code: SIG,
    failedCheck: "payloadNotCanonical",
  },
  {
    name: "payload with duplicate member names",
    token: () => signedText(canonicalClaimsText().replace('"jti":"jti-0001"', '"jti":"jti-0001","jti":"jti-0002"')),
    code: SIG,
    failedCheck: "payloadDuplicateMember",
  },
  {
    name: "payload with duplicate member names spelled differently (escape)",
    token: () => signedText(canonicalClaimsText().replace('"jti":"jti-0001"', '"jti":"jti-0001","j\\u0074i":"x"')),
    code: SIG,
    failedCheck: "payloadDuplicateMember",
  },
  {
    name: "lone surrogate in a string claim",
    token: () => signedText(canonicalClaimsText().replace('"quote_id":"q-0001"', '"quote_id":"q-\\ud800"')),
    code: SIG,
    failedCheck: "payloadLoneSurrogate",
  },
];

// Node 20's decoders silently accept "=" padding and whitespace: each segment, each defect.
const SEGMENTS = [
  [0, "header"],
  [1, "payload"],
  [2, "signature"],
] as const;
const encodingAttacks: Attack[] = SEGMENTS.flatMap(([index, name]) =>
  (
    [
      ["== padding", (s: string) => `${s}==`],
      ["a space inside", (s: string) => `${s.slice(0, 4)} ${s.slice(4)}`],
      ["a newline inside", (s: string) => `${s.slice(0, 4)}\n${s.slice(4)}`],
      ["a trailing tab", (s: string) => `${s}\t`],
    ] as const
  ).map(([defect, mutate]): Attack => ({
    name: `${name} segment with ${defect}`,
    token: () => withSegment(good, index, mutate),
    code: SIG,
    failedCheck: `${name}Encoding`,
  })),
);

const keyAttacks: Attack[] = [
  {
    name: "1024-bit key in the JWKS",
    token: () => rawToken({ privateKey: weak.privateKey }),
    input: { jwks: { keys: [publicJwk(weak.publicKey)] } },
    code: SIG,
    failedCheck: "keySize",
  },
  {
    name: "1024-bit modulus padded with leading zero bytes to 2048 bits of length",
    token: () => rawToken({ privateKey: weak.privateKey }),
    input: {
      jwks: {
        keys: [
          (() => {
            const jwk = publicJwk(weak.publicKey);
            const n = Buffer.concat([Buffer.alloc(128), Buffer.from(jwk.n as string, "base64url")]);
            return { ...jwk, n: n.toString("base64url") };
          })(),
        ],
      },
    },
    code: SIG,
    failedCheck: "keySize",
  },
  {
    name: "two JWKS entries with the same kid",
    token: () => rawToken({ privateKey }),
    input: { jwks: { keys: [publicJwk(publicKey), publicJwk(other.publicKey)] } },
    code: SIG,
    failedCheck: "keyAmbiguous",
  },
  {
    name: "JWKS entry of kty EC",
    token: () => rawToken({ privateKey }),
    input: { jwks: { keys: [{ kty: "EC", crv: "P-256", kid: KID, x: "AA", y: "AA" }] } },
    code: SIG,
    failedCheck: "keyType",
  },
  {
    name: "JWKS entry with use enc",
    token: () => rawToken({ privateKey }),
    input: { jwks: { keys: [publicJwk(publicKey, { use: "enc" })] } },
    code: SIG,
    failedCheck: "keyUse",
  },
  {
    name: "JWKS entry with alg RS512",
    token: () => rawToken({ privateKey }),
    input: { jwks: { keys: [publicJwk(publicKey, { alg: "RS512" })] } },
    code: SIG,
    failedCheck: "keyAlg",
  },
  {
    name: "JWKS entry carrying private key members",
    token: () => rawToken({ privateKey }),
    input: { jwks: { keys: [{ ...(privateKey.export({ format: "jwk" }) as object), kid: KID }] } },
    code: SIG,
    failedCheck: "keyPrivate",
  },
  {
    name: "JWKS entry with a padded modulus",
    token: () => rawToken({ privateKey }),
    input: { jwks: { keys: [publicJwk(publicKey, { n: `${publicJwk(publicKey).n as string}=` })] } },
    code: SIG,
    failedCheck: "keyEncoding",
  },
  {
    name: "JWKS entry with an even exponent",
    token: () => rawToken({ privateKey }),
    input: { jwks: { keys: [publicJwk(publicKey, { e: "AQAA" })] } },
    code: SIG,
    failedCheck: "keyExponent",
  },
  {
    name: "JWKS without a keys array",
    token: () => rawToken({ privateKey }),
    input: { jwks: { keys: "nope" } as unknown as VerifyPartnerQuoteInput["jwks"] },
    code: SIG,
    failedCheck: "jwksInvalid",
  },
];

/** Claims signed correctly (so only claim rules can fail). */
const claimsToken = (claims: Record<string, unknown>) => rawToken({ payload: claims, privateKey });
const without = (name: string) => {
  const claims = validClaims();
  delete claims[name];
  return claims;
};

const NUMERIC_CLAIMS = new Set(["partner_quote_seq", "iat", "exp"]);

const claimAttacks: Attack[] = [
  ...REQUIRED_QUOTE_CLAIMS.map((name): Attack => ({
    name: `claim ${name} missing`,
    token: () => claimsToken(without(name)),
    code: INVALID,
    failedCheck: "claimMissing",
    claim: name,
  })),
  ...REQUIRED_QUOTE_CLAIMS.map((name): Attack => ({
    name: `claim ${name} of the wrong type`,
    token: () => claimsToken(validClaims({ [name]: NUMERIC_CLAIMS.has(name) ? "42" : 42 })),
    code: INVALID,
    failedCheck: "claimType",
    claim: name,
  })),
  ...(["quote_id", "jti", "partner_id", "subscription_id", "beneficiary_country", "corridor", "corridor_type"] as const).map((name): Attack => ({
    name: `claim ${name} empty`,
    token: () => claimsToken(validClaims({ [name]: "" })),
    code: INVALID,
    failedCheck: "claimFormat",
    claim: name,
  })),
  ...(
    [
      ["quote_signature_v1", "v2"],
      ["quote_signature_v1", "V1"],
      ["send_currency", "usd"],
      ["receive_currency", "MXNN"],
      ["beneficiary_currency", "M1N"],
      ["send_amount", "1e3"],
      ["send_amount", "-1.00"],
      ["receive_amount", "01.5"],
      ["fx_rate", "17."],
      ["partner_fee", ".5"],
      ["principal_fee", " 1.99"],
      ["total_consumer_cost", "1,000.00"],
      ["partner_quote_seq", 0],
      ["partner_quote_seq", -1],
      ["partner_quote_seq", 1.5],
      ["partner_quote_seq", 2 ** 53],
      ["iat", NOW_S - 0.5],
      ["exp", -5],
      ["issued_at", "2025-06-01 11:59:59Z"],
      ["issued_at", "2025-06-01T11:59:59+00:00"],
      ["expires_at", "2025-06-01T12:00:59z"],
      ["expires_at", "2025-02-30T12:00:59Z"],
      ["expires_at", "2025-06-01T12:00:60Z"],
    ] as const
  ).map(([name, value]): Attack => ({
    name: `claim ${name} = ${JSON.stringify(value)}`,
    token: () => claimsToken(validClaims({ [name]: value })),
    code: INVALID,
    failedCheck: "claimFormat",
    claim: name,
  })),
  {
    name: "claim partner_quote_seq as a string",
    token: () => claimsToken(validClaims({ partner_quote_seq: "42" })),
    code: INVALID,
    failedCheck: "claimType",
    claim: "partner_quote_seq",
  },
  {
    name: "claim partner_quote_seq null",
    token: () => claimsToken(validClaims({ partner_quote_seq: null })),
    code: INVALID,
    failedCheck: "claimType",
    claim: "partner_quote_seq",
  },
  { name: "payload is an array", token: () => signedText("[1]"), code: INVALID, failedCheck: "claimsObject" },
  { name: "payload is a string", token: () => signedText('"v1"'), code: INVALID, failedCheck: "claimsObject" },
  {
    name: "expires_at one second after exp",
    token: () => claimsToken(validClaims({ expires_at: isoSeconds(NOW_S - 1 + 61) })),
    code: INVALID,
    failedCheck: "expiresAtMismatch",
    claim: "expires_at",
  },
  {
    name: "issued_at one second before iat",
    token: () => claimsToken(validClaims({ issued_at: isoSeconds(NOW_S - 2) })),
    code: INVALID,
    failedCheck: "issuedAtMismatch",
    claim: "issued_at",
  },
  {
    name: "exp equal to iat",
    token: () => claimsToken(validClaims({ exp: NOW_S - 1, expires_at: isoSeconds(NOW_S - 1) })),
    code: INVALID,
    failedCheck: "expNotAfterIat",
    claim: "exp",
  },
  {
    name: "exp - iat = 61 s in the 60 s class",
    token: () => claimsToken(validClaims({ exp: NOW_S + 60, expires_at: isoSeconds(NOW_S + 60) })),
    code: INVALID,
    failedCheck: "ttlExceeded",
    claim: "exp",
  },
  {
    name: "exp - iat = 1801 s in the 1800 s class",
    token: () => claimsToken(validClaims({ exp: NOW_S + 1800, expires_at: isoSeconds(NOW_S + 1800) })),
    input: { maxTtlSeconds: 1800 },
    code: INVALID,
    failedCheck: "ttlExceeded",
    claim: "exp",
  },
  {
    name: "iat 6 s in the future (beyond the 5 s skew)",
    token: () => claimsToken(validClaims({ iat: NOW_S + 6, issued_at: isoSeconds(NOW_S + 6), exp: NOW_S + 60, expires_at: isoSeconds(NOW_S + 60) })),
    code: INVALID,
    failedCheck: "iatInFuture",
    claim: "iat",
  },
];

const expiryAttacks: Attack[] = [
  {
    name: "expired (exp one second ago)",
    token: () => claimsToken(validClaims({ iat: NOW_S - 61, issued_at: isoSeconds(NOW_S - 61), exp: NOW_S - 1, expires_at: isoSeconds(NOW_S - 1) })),
    code: "quote.expired",
    failedCheck: "expired",
    details: { failedCheck: "expired", quoteId: "q-0001", quoteExpiredAt: "2025-06-01T11:59:59.000Z" },
  },
  {
    name: "expired (exp exactly now)",
    token: () => claimsToken(validClaims({ iat: NOW_S - 60, issued_at: isoSeconds(NOW_S - 60), exp: NOW_S, expires_at: isoSeconds(NOW_S) })),
    code: "quote.expired",
    failedCheck: "expired",
    details: { failedCheck: "expired", quoteId: "q-0001", quoteExpiredAt: "2025-06-01T12:00:00.000Z" },
  },
];

const inputAttacks: Attack[] = [
  { name: "token not a string", token: () => 42 as unknown as string, code: SIG, failedCheck: "tokenType" },
  { name: "token longer than 16 kB", token: () => "a".repeat(16 * 1024 + 1), code: SIG, failedCheck: "tokenSize" },
  { name: "invalid now", token: () => good, input: { now: new Date(NaN) }, code: "server.unexpected", failedCheck: "verifierInput" },
  { name: "non-integer class limit", token: () => good, input: { maxTtlSeconds: 60.5 }, code: "server.unexpected", failedCheck: "verifierInput" },
];

const suites: Array<[string, Attack[]]> = [
  ["format, header and payload attacks", formatAttacks],
  ["segment encoding attacks", encodingAttacks],
  ["key attacks", keyAttacks],
  ["claim attacks", claimAttacks],
  ["expiry", expiryAttacks],
  ["caller input", inputAttacks],
];

for (const [title, attacks] of suites) {
  describe(`verifyPartnerQuote rejects: ${title}`, () => {
    for (const attack of attacks) {
      it(attack.name, async () => {
        const token = await attack.token();
        await assertRejects(verifyPartnerQuote(token, input(attack.input)), attack);
      });
    }
  });
}

describe("verifyPartnerQuote accepts", () => {
  it("the happy path: returns exactly the spec 5.4 claims", async () => {
    const claims = await verifyPartnerQuote(good, input());
    assert.deepEqual(claims, validClaims());
    assert.deepEqual(Object.keys(claims).sort(), [...REQUIRED_QUOTE_CLAIMS].sort());
  });

  it("a quote made by signQuoteClaims", async () => {
    const token = await signQuoteClaims(validClaims() as unknown as PartnerQuoteClaims, privateKey, KID);
    assert.deepEqual(await verifyPartnerQuote(token, input()), validClaims());
  });

  it("a header without typ, and unknown extra claims (which are not returned)", async () => {
    const token = rawToken({ header: { alg: "RS256", kid: KID }, payload: { ...validClaims(), extra: { nested: [1] } }, privateKey });
    const claims = await verifyPartnerQuote(token, input());
    assert.equal((claims as unknown as Record<string, unknown>).extra, undefined);
    assert.equal(claims.quote_id, "q-0001");
  });

  it("the right key among several JWKS entries, with use and alg omitted", async () => {
    const { use: _use, alg: _alg, ...bare } = publicJwk(publicKey);
    const jwks = { keys: [{ kty: "EC", kid: "ec-1" }, publicJwk(other.publicKey, { kid: "other" }), bare] };
    assert.equal((await verifyPartnerQuote(good, input({ jwks }))).jti, "jti-0001");
  });

  it("iat exactly 5 s in the future (the skew allowance)", async () => {
    const claims = validClaims({ iat: NOW_S + 5, issued_at: isoSeconds(NOW_S + 5), exp: NOW_S + 65, expires_at: isoSeconds(NOW_S + 65) });
    assert.equal((await verifyPartnerQuote(claimsToken(claims), input())).iat, NOW_S + 5);
  });

  it("exp - iat exactly 60 s, and exactly 1800 s in the 1800 s class", async () => {
    const c60 = validClaims({ exp: NOW_S + 59, expires_at: isoSeconds(NOW_S + 59) });
    assert.equal((await verifyPartnerQuote(claimsToken(c60), input())).exp, NOW_S + 59);
    const c1800 = validClaims({ exp: NOW_S + 1799, expires_at: isoSeconds(NOW_S + 1799), corridor_type: "OFFLINE" });
    assert.equal((await verifyPartnerQuote(claimsToken(c1800), input({ maxTtlSeconds: 1800 }))).exp, NOW_S + 1799);
  });

  it("one millisecond before exp", async () => {
    const claims = await verifyPartnerQuote(good, input({ now: new Date((NOW_S + 59) * 1000 - 1) }));
    assert.equal(claims.exp, NOW_S + 59);
  });

  it("issued_at/expires_at without milliseconds or with a fraction inside the same second", async () => {
    const claims = validClaims({
      issued_at: isoSeconds(NOW_S - 1).replace(".000Z", "Z"),
      expires_at: isoSeconds(NOW_S + 59).replace(".000Z", ".999999Z"),
    });
    assert.equal((await verifyPartnerQuote(claimsToken(claims), input())).expires_at, claims.expires_at);
  });

  it("partner_quote_seq at 2^53 - 1", async () => {
    const claims = validClaims({ partner_quote_seq: Number.MAX_SAFE_INTEGER });
    assert.equal((await verifyPartnerQuote(claimsToken(claims), input())).partner_quote_seq, Number.MAX_SAFE_INTEGER);
  });

  it("non-ASCII claim text (UTF-8, unescaped)", async () => {
    const claims = validClaims({ corridor: "US-MX ✓ é 😂" });
    assert.equal((await verifyPartnerQuote(claimsToken(claims), input())).corridor, "US-MX ✓ é 😂");
  });
});

describe("verifyPartnerQuote never crashes", () => {
  const onlyDomainErrors = async (token: string) => {
    try {
      await verifyPartnerQuote(token, input());
      return "accepted";
    } catch (error) {
      assert.ok(error instanceof DomainError, `non-DomainError thrown: ${String(error)}`);
      assert.ok(["quote.signatureInvalid", "quote.invalid", "quote.expired"].includes(error.code));
      return error.code;
    }
  };

  it("arbitrary strings", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary", maxLength: 200 }), async (s) => {
        assert.notEqual(await onlyDomainErrors(s), "accepted");
      }),
      { numRuns: 300 },
    );
  });

  it("three segments of arbitrary base64url bytes", async () => {
    const segment = fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString("base64url"));
    await fc.assert(
      fc.asyncProperty(segment, segment, segment, async (h, p, s) => {
        assert.notEqual(await onlyDomainErrors(`${h}.${p}.${s}`), "accepted");
      }),
      { numRuns: 300 },
    );
  });

  it("a valid token with one character replaced is never accepted", async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.string({ unit: "binary-ascii", minLength: 1, maxLength: 1 }), async (at, ch) => {
        const i = at % good.length;
        fc.pre(good[i] !== ch);
        const mutated = good.slice(0, i) + ch + good.slice(i + 1);
        assert.notEqual(await onlyDomainErrors(mutated), "accepted");
      }),
      { numRuns: 300 },
    );
  });

  it("valid headers over arbitrary signed JSON payloads", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => {
        const token = rawToken({ payload: JSON.stringify(value), privateKey });
        assert.notEqual(await onlyDomainErrors(token), "accepted");
      }),
      { numRuns: 100 },
    );
  });
});
