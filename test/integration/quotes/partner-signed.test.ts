/**
 * Partner-signed quotes over HTTP (spec 5.4, 7; decisions 6 and 8). The sandbox partner is switched
 * to PARTNER_SIGNED with a JWKS generated here, then restored (SERVICE_PRICED and its previous JWKS)
 * in `after`, because other test files share the partner.
 *
 * Claim values: partner_id partner_demo, subscription_id of the token, corridor US-MX OPEN_PAYMENT,
 * MX/MXN, USD→MXN; fx_rate and receive_amount of a service quote priced just before the switch;
 * principal_fee 2.99, partner_fee 1.00, total 103.99 for 100.00 sent. partner_quote_seq comes from
 * a counter seeded with Date.now(), so reruns against one database keep increasing.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { generateKeyPairSync, randomUUID, type KeyObject } from "node:crypto";
import canonicalize from "canonicalize";
import { signQuoteClaims } from "@/lib/payments/quotes/signing/sign-quote";
import type { PartnerQuoteClaims } from "@/lib/payments/quotes/signing/quote-claims";
import { b64u, signCompact, withSegment, type Alg } from "../../support/jws";
import {
  acceptQuote,
  assertError,
  assertIssue,
  createQuote,
  disclosureToken,
  putPartner,
  quoteBody,
  readQuote,
  serverNow,
  serviceQuote,
  validBeneficiary,
  validCustomer,
  type CallResult,
  type Customer,
  type PartnerSettings,
} from "../support";

// ---------------------------------------------------------------------------------------------
// The partner's keys and signer

const RUN = randomUUID().slice(0, 8);
const KID = `itest-main-${RUN}`;
const WEAK_KID = `itest-weak-${RUN}`;
const main = generateKeyPairSync("rsa", { modulusLength: 2048 });
const weak = generateKeyPairSync("rsa", { modulusLength: 1024 });
const stranger = generateKeyPairSync("rsa", { modulusLength: 2048 });

const publicJwk = (key: KeyObject, kid: string) => ({ ...(key.export({ format: "jwk" }) as Record<string, unknown>), kid, use: "sig", alg: "RS256" });

let seq = Date.now();
const nextSeq = () => ++seq;

const iso = (epoch: number) => new Date(epoch * 1000).toISOString().replace(".000Z", "Z");

/** Signs exact header and payload text by hand, so tokens no honest signer makes can be built. */
function rawToken(opts: {
  header?: Record<string, unknown> | string;
  payload: Record<string, unknown> | string;
  key?: KeyObject;
  alg?: Alg;
  hmacSecret?: string | Buffer;
}): string {
  const header = opts.header ?? { alg: "RS256", kid: KID, typ: "JWT" };
  const headerText = typeof header === "string" ? header : JSON.stringify(header);
  const payloadText = typeof opts.payload === "string" ? opts.payload : canonicalize(opts.payload)!;
  const alg = opts.alg ?? "RS256";
  return signCompact(headerText, payloadText, alg === "HS256" ? (opts.hmacSecret ?? "") : (opts.key ?? main.privateKey), alg);
}

// ---------------------------------------------------------------------------------------------
// Setup

let previous: PartnerSettings;
let c: Customer;
let other: Customer;
let ben: any;
let otherBen: any;
let fxRate: string;
let receive: string;

before(async () => {
  previous = await putPartner({});
  assert.equal(previous.pricingMode, "SERVICE_PRICED", "the sandbox partner must start SERVICE_PRICED");
  c = await validCustomer();
  other = await validCustomer();
  ben = await validBeneficiary(c);
  otherBen = await validBeneficiary(other);
  // The current rate and what 100 USD buys at it, priced by the service.
  const sq = await serviceQuote(c, ben.beneficiaryId);
  fxRate = sq.fxRate;
  receive = sq.destinationAmount.replace(/0+$/, "").replace(/\.$/, "");
  const settings = await putPartner({ pricingMode: "PARTNER_SIGNED", jwks: { keys: [publicJwk(main.publicKey, KID), publicJwk(weak.publicKey, WEAK_KID)] } });
  assert.equal(settings.pricingMode, "PARTNER_SIGNED");
});

after(async () => {
  const restored = await putPartner({ pricingMode: "SERVICE_PRICED", jwks: previous.jwks });
  assert.equal(restored.pricingMode, "SERVICE_PRICED");
  assert.deepEqual(restored.jwks, previous.jwks);
});

/** Valid claims for 100.00 USD at the server's current time, with overrides. */
async function claims(overrides: Record<string, unknown> = {}): Promise<PartnerQuoteClaims & Record<string, unknown>> {
  const now = Math.floor((await serverNow()).getTime() / 1000);
  const iat = now - 1;
  const exp = iat + 60;
  return {
    quote_signature_v1: "v1",
    quote_id: `pq_${randomUUID()}`,
    jti: randomUUID(),
    partner_id: "partner_demo",
    partner_quote_seq: nextSeq(),
    subscription_id: c.subscriptionId,
    send_amount: "100.00",
    send_currency: "USD",
    receive_amount: receive,
    receive_currency: "MXN",
    beneficiary_country: "MX",
    beneficiary_currency: "MXN",
    corridor: "US-MX",
    corridor_type: "OPEN_PAYMENT",
    fx_rate: fxRate,
    partner_fee: "1.00",
    principal_fee: "2.99",
    total_consumer_cost: "103.99",
    iat,
    exp,
    issued_at: iso(iat),
    expires_at: iso(exp),
    ...overrides,
  } as PartnerQuoteClaims & Record<string, unknown>;
}

/** The honest signer of lib/payments/quotes/signing (JCS payload, header {alg, kid, typ}). */
const signed = async (overrides: Record<string, unknown> = {}, kid = KID, key: KeyObject = main.privateKey) =>
  signQuoteClaims(await claims(overrides), key, kid);

const send = (token: string | undefined, body: Record<string, unknown> = {}, who: Customer = c) =>
  createQuote(who, quoteBody(ben.beneficiaryId, { ...(token === undefined ? {} : { partnerQuote: token }), ...body }));

const rate = (factor: number) => (Number(fxRate) * factor).toFixed(6);
const receiveAt = (r: string) => (Math.round(100 * Number(r) * 100) / 100).toFixed(2);

// ---------------------------------------------------------------------------------------------

describe("happy path", () => {
  test("a partner-signed quote is verified, stored as signed, disclosed and accepted (201)", async () => {
    const cl = await claims();
    const token = await signQuoteClaims(cl, main.privateKey, KID);
    const res = await send(token);
    assert.equal(res.status, 200, res.text);
    const q = res.body;
    assert.equal(q.quoteId, cl.quote_id);
    assert.equal(q.signedQuote, token);
    assert.equal(q.status, "AVAILABLE");
    assert.equal(q.originAmount, "100.000000");
    assert.equal(q.destinationAmount, `${receive}${"0".repeat(6 - (receive.split(".")[1] ?? "").length)}`.replace(/^(\d+)0{6}$/, "$1.000000"));
    assert.equal(q.fxRate, fxRate);
    assert.equal(q.principalFee, "2.990000");
    assert.equal(q.partnerFee, "1.000000");
    assert.equal(q.totalCustomerCost, "103.990000");
    assert.equal(q.quoteValidUntil, new Date(cl.exp * 1000).toISOString());
    assert.deepEqual(q.corridor, { originCountry: "USA", destinationCountry: "MEX", payoutMethod: "bank_account", fundingMethods: ["CARD", "BANK_TRANSFER"] });
    assert.deepEqual((await readQuote(c, q.quoteId)).body, q);

    const token2 = await disclosureToken(c, q.quoteId);
    const accepted = await acceptQuote(c, q.quoteId, token2);
    assert.equal(accepted.status, 201, accepted.text);
    assert.equal(accepted.body.quoteId, cl.quote_id);
    assert.equal(accepted.body.transferStatus, "registered");
    assert.equal((await readQuote(c, q.quoteId)).body.status, "ACCEPTED");
  });

  test("quote_id of 128 URL-safe characters is accepted and addressable", async () => {
    const quoteId = `Q${RUN}${"a1_.~-".repeat(19)}`.padEnd(128, "z");
    assert.equal(quoteId.length, 128);
    const res = await send(await signed({ quote_id: quoteId }));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.quoteId, quoteId);
    assert.equal((await readQuote(c, quoteId)).status, 200);
    assert.equal((await acceptQuote(c, quoteId, await disclosureToken(c, quoteId))).status, 201);
  });

  test("cash_pickup: corridor_type OFFLINE may live 1800 s", async () => {
    const cl = await claims({ corridor_type: "OFFLINE" });
    const token = await signQuoteClaims({ ...cl, exp: cl.iat + 1800, expires_at: iso(cl.iat + 1800) }, main.privateKey, KID);
    const res = await send(token, { payoutMethod: "cash_pickup" });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.corridor.payoutMethod, "cash_pickup");
    assert.equal(Date.parse(res.body.quoteValidUntil), (cl.iat + 1800) * 1000);
  });

  test("payoutMethod wallet_transfer (not on US-MX) → 400 validation.methodNotAvailableForCorridor, before any signature work", async () => {
    assertIssue(await send(await signed(), { payoutMethod: "wallet_transfer" }), "payoutMethod", "validation.methodNotAvailableForCorridor");
  });

  test("missing partnerQuote → 400 validation.fieldMissing on partnerQuote", async () => {
    assertIssue(await send(undefined), "partnerQuote", "validation.fieldMissing");
  });
});

interface Row {
  name: string;
  build: () => Promise<{ token: string; body?: Record<string, unknown>; who?: Customer }>;
  status: number;
  code: string;
  /** Exact details, or a check of them. */
  details: Record<string, unknown> | ((d: any) => void);
}

const sig = (failedCheck: string) => ({ status: 422, code: "quote.signatureInvalid", details: { failedCheck } });
const claim = (failedCheck: string, name: string) => ({ status: 422, code: "quote.invalid", details: { failedCheck, claim: name } });
const envelope = (measure: string, check: (d: any) => void = () => {}) => ({
  status: 422,
  code: "quote.envelopeBreach",
  details: (d: any) => {
    assert.equal(d.measure, measure);
    check(d);
  },
});

const ROWS: Row[] = [
  // --- signature, header, key (quote.signatureInvalid) ---
  {
    name: "tampered payload (send_amount changed after signing)",
    build: async () => {
      const good = await signed();
      const evil = await claims({ send_amount: "1000.00", total_consumer_cost: "1003.99" });
      return { token: withSegment(good, 1, () => b64u(canonicalize(evil)!)), body: { originAmount: "1000.000000" } };
    },
    ...sig("signature"),
  },
  {
    name: "tampered signature (one byte flipped)",
    build: async () => ({
      token: withSegment(await signed(), 2, (s) => {
        const bytes = Buffer.from(s, "base64url");
        bytes[bytes.length >> 1] ^= 0x01;
        return bytes.toString("base64url");
      }),
    }),
    ...sig("signature"),
  },
  {
    name: "signed by a key not in the JWKS under the partner's kid",
    build: async () => ({ token: await signed({}, KID, stranger.privateKey) }),
    ...sig("signature"),
  },
  {
    name: "alg none, empty signature",
    build: async () => ({ token: rawToken({ header: { alg: "none", kid: KID, typ: "JWT" }, payload: await claims(), alg: "none" }) }),
    ...sig("headerAlg"),
  },
  {
    name: "HS256 keyed with the partner's public key",
    build: async () => ({
      token: rawToken({
        header: { alg: "HS256", kid: KID, typ: "JWT" },
        payload: await claims(),
        alg: "HS256",
        hmacSecret: main.publicKey.export({ format: "pem", type: "spki" }) as string,
      }),
    }),
    ...sig("headerAlg"),
  },
  {
    name: "RS512",
    build: async () => ({ token: rawToken({ header: { alg: "RS512", kid: KID, typ: "JWT" }, payload: await claims(), alg: "RS512" }) }),
    ...sig("headerAlg"),
  },
  {
    name: "PS256",
    build: async () => ({ token: rawToken({ header: { alg: "PS256", kid: KID, typ: "JWT" }, payload: await claims(), alg: "PS256" }) }),
    ...sig("headerAlg"),
  },
  {
    name: "header carries jwk (the attacker's own key)",
    build: async () => ({
      token: rawToken({
        header: { alg: "RS256", kid: KID, typ: "JWT", jwk: stranger.publicKey.export({ format: "jwk" }) },
        payload: await claims(),
        key: stranger.privateKey,
      }),
    }),
    ...sig("headerForbiddenParameter"),
  },
  {
    name: "header carries crit",
    build: async () => ({ token: rawToken({ header: { alg: "RS256", kid: KID, typ: "JWT", crit: ["exp"], exp: 1 }, payload: await claims() }) }),
    ...sig("headerForbiddenParameter"),
  },
  {
    name: "header b64:false (RFC 7797 unencoded payload)",
    build: async () => ({ token: rawToken({ header: { alg: "RS256", kid: KID, typ: "JWT", b64: false, crit: ["b64"] }, payload: await claims() }) }),
    ...sig("headerForbiddenParameter"),
  },
  {
    name: "header jku",
    build: async () => ({
      token: rawToken({ header: { alg: "RS256", kid: KID, typ: "JWT", jku: "https://attacker.example/jwks.json" }, payload: await claims() }),
    }),
    ...sig("headerForbiddenParameter"),
  },
  {
    name: "header x5u",
    build: async () => ({
      token: rawToken({ header: { alg: "RS256", kid: KID, typ: "JWT", x5u: "https://attacker.example/cert.pem" }, payload: await claims() }),
    }),
    ...sig("headerForbiddenParameter"),
  },
  {
    name: "kid absent",
    build: async () => ({ token: rawToken({ header: { alg: "RS256", typ: "JWT" }, payload: await claims() }) }),
    ...sig("headerKid"),
  },
  {
    name: "typ other than JWT",
    build: async () => ({ token: rawToken({ header: { alg: "RS256", kid: KID, typ: "JOSE" }, payload: await claims() }) }),
    ...sig("headerTyp"),
  },
  {
    name: "duplicate header member (alg twice)",
    build: async () => ({ token: rawToken({ header: `{"alg":"none","alg":"RS256","kid":"${KID}","typ":"JWT"}`, payload: await claims() }) }),
    ...sig("headerDuplicateMember"),
  },
  {
    name: "unknown kid",
    build: async () => ({ token: await signed({}, "no-such-kid") }),
    ...sig("keyNotFound"),
  },
  {
    name: "1024-bit key (published in the JWKS)",
    // jose refuses to sign with it, so the token is signed by hand.
    build: async () => ({ token: rawToken({ header: { alg: "RS256", kid: WEAK_KID, typ: "JWT" }, payload: await claims(), key: weak.privateKey }) }),
    ...sig("keySize"),
  },
  {
    name: "non-canonical payload (whitespace)",
    build: async () => ({ token: rawToken({ payload: JSON.stringify(JSON.parse(canonicalize(await claims())!), null, 1) }) }),
    ...sig("payloadNotCanonical"),
  },
  {
    name: "non-canonical payload (keys unsorted)",
    build: async () => {
      const cl = await claims();
      const reversed = Object.fromEntries(Object.entries(JSON.parse(canonicalize(cl)!)).reverse());
      return { token: rawToken({ payload: JSON.stringify(reversed) }) };
    },
    ...sig("payloadNotCanonical"),
  },
  {
    name: "duplicate payload member (send_amount twice)",
    build: async () => {
      const text = canonicalize(await claims())!;
      return { token: rawToken({ payload: `{"send_amount":"1.00",${text.slice(1)}` }) };
    },
    ...sig("payloadDuplicateMember"),
  },
  {
    name: "== padding on the payload segment",
    build: async () => ({ token: withSegment(await signed(), 1, (s) => `${s}==`) }),
    ...sig("payloadEncoding"),
  },
  {
    name: "== padding on the signature segment",
    build: async () => ({ token: withSegment(await signed(), 2, (s) => `${s}==`) }),
    ...sig("signatureEncoding"),
  },
  {
    name: "standard base64 (+ /) in the signature segment",
    build: async () => ({ token: withSegment(await signed(), 2, (s) => Buffer.from(s, "base64url").toString("base64").replace(/=+$/, "")) }),
    details: (d: any) => assert.ok(["signatureEncoding", "signature"].includes(d.failedCheck), JSON.stringify(d)),
    status: 422,
    code: "quote.signatureInvalid",
  },
  {
    name: "token over 16 KiB (a huge extra claim)",
    build: async () => ({ token: withSegment(await signed(), 1, () => b64u(canonicalize({ pad: "x".repeat(17_000) })!)) }),
    ...sig("tokenSize"),
  },
  {
    name: "four segments",
    build: async () => ({ token: `${await signed()}.x` }),
    ...sig("segmentCount"),
  },
  {
    name: "JWS JSON serialization",
    build: async () => {
      const [h, p, s] = (await signed()).split(".");
      return { token: JSON.stringify({ protected: h, payload: p, signature: s }) };
    },
    ...sig("jsonSerialization"),
  },
  // --- claims (quote.invalid, 422) ---
  {
    name: "missing claim (jti)",
    build: async () => {
      const { jti: _omit, ...rest } = await claims();
      return { token: rawToken({ payload: rest }) };
    },
    ...claim("claimMissing", "jti"),
  },
  {
    name: "missing claim (total_consumer_cost)",
    build: async () => {
      const { total_consumer_cost: _omit, ...rest } = await claims();
      return { token: rawToken({ payload: rest }) };
    },
    ...claim("claimMissing", "total_consumer_cost"),
  },
  {
    name: "partner_quote_seq as a string",
    build: async () => {
      const cl = await claims();
      return { token: rawToken({ payload: { ...cl, partner_quote_seq: String(cl.partner_quote_seq) } }) };
    },
    ...claim("claimType", "partner_quote_seq"),
  },
  {
    name: "money as a number (send_amount 100)",
    build: async () => ({ token: rawToken({ payload: { ...(await claims()), send_amount: 100 } }) }),
    ...claim("claimType", "send_amount"),
  },
  {
    name: "quote_signature_v1 other than v1",
    build: async () => ({ token: rawToken({ payload: { ...(await claims()), quote_signature_v1: "v2" } }) }),
    ...claim("claimFormat", "quote_signature_v1"),
  },
  {
    name: "expires_at ≠ exp",
    build: async () => {
      const cl = await claims();
      return { token: rawToken({ payload: { ...cl, expires_at: iso(cl.exp + 1) } }) };
    },
    ...claim("expiresAtMismatch", "expires_at"),
  },
  {
    name: "issued_at ≠ iat",
    build: async () => {
      const cl = await claims();
      return { token: rawToken({ payload: { ...cl, issued_at: iso(cl.iat - 1) } }) };
    },
    ...claim("issuedAtMismatch", "issued_at"),
  },
  {
    name: "exp - iat = 61 (> 60, ttlExceeded)",
    build: async () => {
      const cl = await claims();
      return { token: await signQuoteClaims({ ...cl, exp: cl.iat + 61, expires_at: iso(cl.iat + 61) }, main.privateKey, KID) };
    },
    ...claim("ttlExceeded", "exp"),
  },
  {
    name: "OPEN_PAYMENT quote living 1800 s (the OFFLINE ceiling does not apply)",
    build: async () => {
      const cl = await claims();
      return { token: await signQuoteClaims({ ...cl, exp: cl.iat + 1800, expires_at: iso(cl.iat + 1800) }, main.privateKey, KID) };
    },
    ...claim("ttlExceeded", "exp"),
  },
  {
    name: "iat 60 s in the future",
    build: async () => {
      const cl = await claims();
      const iat = cl.iat + 61;
      return { token: await signQuoteClaims({ ...cl, iat, exp: iat + 60, issued_at: iso(iat), expires_at: iso(iat + 60) }, main.privateKey, KID) };
    },
    ...claim("iatInFuture", "iat"),
  },
  {
    name: "expired (exp a minute ago)",
    build: async () => {
      const cl = await claims();
      const iat = cl.iat - 120;
      const token = await signQuoteClaims({ ...cl, iat, exp: iat + 60, issued_at: iso(iat), expires_at: iso(iat + 60) }, main.privateKey, KID);
      return { token };
    },
    status: 422,
    code: "quote.expired",
    details: (d: any) => {
      assert.deepEqual(Object.keys(d).sort(), ["failedCheck", "quoteExpiredAt", "quoteId"]);
      assert.equal(d.failedCheck, "expired");
      assert.match(d.quoteId, /^pq_/);
    },
  },
  // --- binding (quote.bindingMismatch) ---
  {
    name: "subscription_id of another customer",
    build: async () => ({ token: await signed({ subscription_id: other.subscriptionId }) }),
    status: 422,
    code: "quote.bindingMismatch",
    details: (d: any) => assert.deepEqual(d, { field: "subscription_id", expected: c.subscriptionId, actual: other.subscriptionId }),
  },
  {
    name: "the other customer presenting my correctly signed quote (their own beneficiary)",
    build: async () => ({ token: await signed(), who: other, body: { beneficiaryId: otherBen.beneficiaryId } }),
    status: 422,
    code: "quote.bindingMismatch",
    details: (d: any) => assert.deepEqual(d, { field: "subscription_id", expected: other.subscriptionId, actual: c.subscriptionId }),
  },
  {
    name: "partner_id of another partner",
    build: async () => ({ token: await signed({ partner_id: "partner_other" }) }),
    status: 422,
    code: "quote.bindingMismatch",
    details: (d: any) => assert.equal(d.field, "partner_id"),
  },
  {
    name: "beneficiary_country PH for a MEX beneficiary",
    build: async () => ({ token: await signed({ beneficiary_country: "PH" }) }),
    status: 422,
    code: "quote.bindingMismatch",
    details: { field: "beneficiary_country", expected: "MX", actual: "PH" },
  },
  {
    name: "beneficiary_currency PHP",
    build: async () => ({ token: await signed({ beneficiary_currency: "PHP" }) }),
    status: 422,
    code: "quote.bindingMismatch",
    details: { field: "beneficiary_currency", expected: "MXN", actual: "PHP" },
  },
  {
    name: "corridor US-PH",
    build: async () => ({ token: await signed({ corridor: "US-PH" }) }),
    status: 422,
    code: "quote.bindingMismatch",
    details: { field: "corridor", expected: "US-MX", actual: "US-PH" },
  },
  {
    name: "corridor_type OFFLINE for bank_account",
    build: async () => ({ token: await signed({ corridor_type: "OFFLINE" }) }),
    status: 422,
    code: "quote.bindingMismatch",
    details: { field: "corridor_type", expected: "OPEN_PAYMENT", actual: "OFFLINE" },
  },
  // --- amounts ---
  {
    name: "originAmount ≠ send_amount",
    build: async () => ({ token: await signed(), body: { originAmount: "100.010000" } }),
    status: 422,
    code: "quote.amountChanged",
    details: { signed: "100.00", requested: "100.010000" },
  },
  {
    name: "zero amount (originAmount 0.000000, send_amount 0): refused like a service quote",
    build: async () => ({ token: await signed({ send_amount: "0", receive_amount: "0", total_consumer_cost: "3.99" }), body: { originAmount: "0.000000" } }),
    status: 400,
    code: "validation.fieldInvalid",
    details: (d: any) =>
      assert.deepEqual(
        d.issues.map((i: any) => [i.field, i.code]),
        [["originAmount", "validation.fieldInvalid"]],
      ),
  },
  {
    name: "sub-cent USD amount (originAmount 100.001000, send_amount 100.001)",
    build: async () => ({
      token: await signed({
        send_amount: "100.001",
        receive_amount: (Math.round(100.001 * Number(fxRate) * 100) / 100).toFixed(2),
        total_consumer_cost: "103.991",
      }),
      body: { originAmount: "100.001000" },
    }),
    status: 400,
    // The summary is the single issue's code.
    code: "validation.fieldFormatInvalid",
    details: (d: any) =>
      assert.deepEqual(
        d.issues.map((i: any) => [i.field, i.code]),
        [["originAmount", "validation.fieldFormatInvalid"]],
      ),
  },
  // --- quote_id must be usable as the quoteId path segment of later calls ---
  {
    name: "quote_id of 129 characters",
    build: async () => ({ token: await signed({ quote_id: `q${"x".repeat(128)}` }) }),
    ...claim("claimFormat", "quote_id"),
  },
  {
    name: 'quote_id ".."',
    build: async () => ({ token: await signed({ quote_id: ".." }) }),
    ...claim("claimFormat", "quote_id"),
  },
  {
    name: "quote_id with a slash",
    build: async () => ({ token: await signed({ quote_id: "a/b" }) }),
    ...claim("claimFormat", "quote_id"),
  },
  // --- envelope (quote.envelopeBreach, details.measure) ---
  {
    name: "fx_rate 5% off the reference",
    build: async () => {
      const r = rate(1.05);
      return { token: await signed({ fx_rate: r, receive_amount: receiveAt(r) }) };
    },
    ...envelope("fxRate", (d) => {
      assert.equal(d.actual, rate(1.05));
      assert.equal(d.tolerance, "0.005");
      assert.match(d.referenceRate, /^18\.\d+$/);
    }),
  },
  {
    name: "fx_rate 1% below the reference",
    build: async () => {
      const r = rate(0.99);
      return { token: await signed({ fx_rate: r, receive_amount: receiveAt(r) }) };
    },
    ...envelope("fxRate"),
  },
  {
    name: "partner_fee above the cap (10.01)",
    build: async () => ({ token: await signed({ partner_fee: "10.01", total_consumer_cost: "113.00" }) }),
    ...envelope("partnerFee", (d) => {
      assert.equal(d.actual, "10.01");
      assert.equal(d.expected, "0.000000..10.000000");
    }),
  },
  {
    name: "partner_fee with sub-cent precision (1.005)",
    build: async () => ({ token: await signed({ partner_fee: "1.005", total_consumer_cost: "103.995" }) }),
    ...envelope("partnerFee", (d) => assert.equal(d.reason, "minorUnit")),
  },
  {
    name: "principal_fee 3.00 (corridor's is 2.99)",
    build: async () => ({ token: await signed({ principal_fee: "3.00", total_consumer_cost: "104.00" }) }),
    ...envelope("principalFee", (d) => {
      assert.equal(d.expected, "2.990000");
      assert.equal(d.actual, "3.00");
    }),
  },
  {
    name: "total_consumer_cost off by 0.01",
    build: async () => ({ token: await signed({ total_consumer_cost: "104.00" }) }),
    ...envelope("totalConsumerCost", (d) => {
      assert.equal(d.expected, "103.990000");
      assert.equal(d.actual, "104.00");
    }),
  },
  {
    name: "receive_amount off by 0.01",
    build: async () => {
      const off = (Number(receive) + 0.01).toFixed(2);
      return { token: await signed({ receive_amount: off }) };
    },
    ...envelope("receiveAmount", (d) => assert.equal(Number(d.expected), Number(receive))),
  },
];

describe("attack table: every row refused with its exact code and check, never a 5xx", () => {
  for (const row of ROWS) {
    test(`${row.name} → ${row.status} ${row.code}`, async () => {
      const { token, body, who } = await row.build();
      const res: CallResult = await send(token, body, who);
      assert.ok(res.status < 500, `${res.status} ${res.text}`);
      const error = assertError(res, row.status, row.code);
      if (typeof row.details === "function") row.details(error.details);
      else assert.deepEqual(error.details, row.details);
    });
  }
});

describe("sequence and reuse", () => {
  test("a reused partner_quote_seq → 422 quote.sequenceGap; a lower one too", async () => {
    const first = await claims();
    assert.equal((await send(await signQuoteClaims(first, main.privateKey, KID))).status, 200);
    const same = await send(await signed({ partner_quote_seq: first.partner_quote_seq }));
    const error = assertError(same, 422, "quote.sequenceGap");
    assert.deepEqual(error.details, { highestSeen: first.partner_quote_seq, received: first.partner_quote_seq });
    const lower = await send(await signed({ partner_quote_seq: first.partner_quote_seq - 5 }));
    assertError(lower, 422, "quote.sequenceGap");
  });

  test("a refused quote does not consume its sequence number", async () => {
    const s = nextSeq();
    assertError(await send(await signed({ partner_quote_seq: s, total_consumer_cost: "104.00" })), 422, "quote.envelopeBreach");
    assert.equal((await send(await signed({ partner_quote_seq: s }))).status, 200);
  });

  test("a reused jti with a higher seq → 409 quote.invalid (reuse)", async () => {
    const first = await claims();
    assert.equal((await send(await signQuoteClaims(first, main.privateKey, KID))).status, 200);
    const res = await send(await signed({ jti: first.jti }));
    const error = assertError(res, 409, "quote.invalid");
    assert.deepEqual(error.details, { failedCheck: "reuse" });
  });

  test("a reused quote_id with a higher seq → 409 quote.invalid (reuse)", async () => {
    const first = await claims();
    assert.equal((await send(await signQuoteClaims(first, main.privateKey, KID))).status, 200);
    const res = await send(await signed({ quote_id: first.quote_id }));
    const error = assertError(res, 409, "quote.invalid");
    assert.deepEqual(error.details, { failedCheck: "reuse" });
  });

  test("a quote_id equal to an existing service-priced quote's id → 409 quote.invalid (reuse)", async () => {
    // Any quote the service already knows; here one of this partner's own accepted ones.
    const first = await claims();
    assert.equal((await send(await signQuoteClaims(first, main.privateKey, KID))).status, 200);
    const res = await send(await signed({ quote_id: first.quote_id, jti: randomUUID() }));
    assertError(res, 409, "quote.invalid");
  });

  test("the same quote resent with the same Idempotency-Key replays the 200", async () => {
    const token = await signed();
    const key = randomUUID();
    const a = await createQuote(c, quoteBody(ben.beneficiaryId, { partnerQuote: token }), { idempotencyKey: key });
    assert.equal(a.status, 200, a.text);
    const b = await createQuote(c, quoteBody(ben.beneficiaryId, { partnerQuote: token }), { idempotencyKey: key });
    assert.equal(b.status, 200);
    assert.equal(b.text, a.text);
    assert.equal(b.headers.get("idempotent-replayed"), "true");
    // With a new key it is a reuse of seq (and ids): refused.
    assertError(await createQuote(c, quoteBody(ben.beneficiaryId, { partnerQuote: token })), 422, "quote.sequenceGap");
  });

  test("two quotes with the same seq in parallel → exactly one 200 and one quote.sequenceGap", async () => {
    const s = nextSeq();
    const [t1, t2] = await Promise.all([signed({ partner_quote_seq: s }), signed({ partner_quote_seq: s })]);
    const results = await Promise.all([send(t1), send(t2)]);
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 422], results.map((r) => r.text).join("\n"));
    const refused = results.find((r) => r.status === 422)!;
    const error = assertError(refused, 422, "quote.sequenceGap");
    assert.deepEqual(error.details, { highestSeen: s, received: s });
  });

  test("N=6 parallel quotes with increasing seqs → each either 200 or sequenceGap; the highest seq always wins", async () => {
    const seqs = Array.from({ length: 6 }, () => nextSeq());
    const tokens = await Promise.all(seqs.map((s) => signed({ partner_quote_seq: s })));
    const results = await Promise.all(tokens.map((t) => send(t)));
    for (const r of results) {
      assert.ok(r.status === 200 || (r.status === 422 && r.body.error.code === "quote.sequenceGap"), r.text);
    }
    assert.equal(results[results.length - 1]!.status, 200, "the highest seq is above every other, so it cannot be refused");
  });
});

describe("acceptance re-verifies the partner's signature", () => {
  test("key removed from the JWKS after the quote → accept 422 quote.signatureInvalid keyNotFound; restored → 201", async () => {
    const res = await send(await signed());
    assert.equal(res.status, 200, res.text);
    const token = await disclosureToken(c, res.body.quoteId);
    await putPartner({ jwks: { keys: [publicJwk(weak.publicKey, WEAK_KID)] } });
    try {
      const error = assertError(await acceptQuote(c, res.body.quoteId, token), 422, "quote.signatureInvalid");
      assert.deepEqual(error.details, { failedCheck: "keyNotFound" });
      assert.equal((await readQuote(c, res.body.quoteId)).body.status, "AVAILABLE");
    } finally {
      await putPartner({ jwks: { keys: [publicJwk(main.publicKey, KID), publicJwk(weak.publicKey, WEAK_KID)] } });
    }
    assert.equal((await acceptQuote(c, res.body.quoteId, token)).status, 201);
  });
});
