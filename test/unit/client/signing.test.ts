/**
 * The client's signing helpers checked against the service's own verifiers: signPartnerQuote
 * (spec 5.4) against verifyPartnerQuote, deviceAssertion (spec 5.3) against verifyDeviceAssertion,
 * verifyWebhook against lib/partners/webhooks/signing (one secret, and both during a rotation).
 */
import assert from "node:assert/strict";
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { describe, it } from "node:test";
import canonicalize from "canonicalize";
import { decodeProtectedHeader } from "jose";
import { deviceAssertion, signPartnerQuote, verifyWebhook, WebhookVerificationError, type PartnerQuoteClaims } from "@remit-core/client";
import { verifyDeviceAssertion } from "@/lib/identity/devices/assertion/verify-device-assertion";
import { verifyPartnerQuote } from "@/lib/payments/quotes/signing/verify-partner-quote";
import { signWebhook } from "@/lib/partners/webhooks/signing";

const rsa = (bits = 2048) => generateKeyPairSync("rsa", { modulusLength: bits });
const iso = (epoch: number) => new Date(epoch * 1000).toISOString().replace(".000Z", "Z");
const NOW = new Date("2026-11-22T12:00:00Z");
const nowS = NOW.getTime() / 1000;

function claims(): PartnerQuoteClaims {
  return {
    quote_signature_v1: "v1",
    quote_id: `pq_${randomUUID()}`,
    jti: randomUUID(),
    partner_id: "partner_demo",
    partner_quote_seq: 42,
    subscription_id: "sub_1",
    send_amount: "100.00",
    send_currency: "USD",
    receive_amount: "1712.34",
    receive_currency: "MXN",
    beneficiary_country: "MX",
    beneficiary_currency: "MXN",
    corridor: "US-MX",
    corridor_type: "OPEN_PAYMENT",
    fx_rate: "17.1234",
    partner_fee: "1.00",
    principal_fee: "2.99",
    total_consumer_cost: "103.99",
    iat: nowS - 1,
    exp: nowS + 59,
    issued_at: iso(nowS - 1),
    expires_at: iso(nowS + 59),
  };
}

describe("signPartnerQuote", () => {
  const key = rsa();
  const privateJwk = { ...key.privateKey.export({ format: "jwk" }), kid: "partner-key-1" };
  const jwks = { keys: [{ ...key.publicKey.export({ format: "jwk" }), kid: "partner-key-1", use: "sig", alg: "RS256" }] };

  it("makes a compact JWS the service's verifier accepts: header {alg, kid, typ} only, payload the JCS bytes", async () => {
    const c = claims();
    const jws = await signPartnerQuote(c, privateJwk);
    assert.deepEqual(await verifyPartnerQuote(jws, { jwks: jwks as never, now: NOW, maxTtlSeconds: 60 }), c);
    assert.deepEqual(decodeProtectedHeader(jws), { alg: "RS256", kid: "partner-key-1", typ: "JWT" });
    assert.equal(Buffer.from(jws.split(".")[1]!, "base64url").toString("utf8"), canonicalize(c));
  });

  it("refuses what the service would refuse: a key under 2048 bits, no kid, a public key, a missing claim, iat/issued_at apart", async () => {
    const weak = { ...rsa(1024).privateKey.export({ format: "jwk" }), kid: "k" };
    await assert.rejects(signPartnerQuote(claims(), weak), /RSA-2048/);
    await assert.rejects(signPartnerQuote(claims(), { ...privateJwk, kid: undefined }), /kid/);
    await assert.rejects(signPartnerQuote(claims(), jwks.keys[0]!), /private RSA JWK/);
    const { jti: _jti, ...noJti } = claims();
    await assert.rejects(signPartnerQuote(noJti as PartnerQuoteClaims, privateJwk), /jti/);
    await assert.rejects(signPartnerQuote({ ...claims(), issued_at: iso(nowS) }, privateJwk), /issued_at/);
  });
});

describe("deviceAssertion", () => {
  it("is accepted by the service's verifier with the transfer's exact values and the latest challenge", async () => {
    const key = rsa();
    const device = { deviceId: "dev_1", kid: "kid_1", privateKey: key.privateKey };
    const transfer = { transferId: "trf_1", originAmount: "100.000000", originCurrency: "USD", beneficiaryId: "ben_1", confirmationChallenge: "ch_1" };
    const jws = await deviceAssertion(transfer, device, { iat: nowS, nonce: "n-1" });
    assert.deepEqual(decodeProtectedHeader(jws), { alg: "RS256", kid: "kid_1", typ: "JWT" });
    const verified = await verifyDeviceAssertion(jws, {
      findDeviceByKid: async (kid) =>
        kid === "kid_1" ? { deviceId: "dev_1", customerRef: "cus_1", status: "ACTIVE", publicJwk: key.publicKey.export({ format: "jwk" }) } : null,
      customerRef: "cus_1",
      transfer: { transferId: "trf_1", amount: "100.000000", currency: "USD", beneficiaryId: "ben_1" },
      latestChallenge: "ch_1",
      now: NOW,
      maxAgeSeconds: 60,
    });
    assert.deepEqual(verified, { deviceId: "dev_1", nonce: "n-1" });
    // A private JWK works as the key too; without a challenge there is nothing to sign.
    const fromJwk = await deviceAssertion(transfer, { ...device, privateKey: key.privateKey.export({ format: "jwk" }) });
    assert.equal(fromJwk.split(".").length, 3);
    await assert.rejects(deviceAssertion({ ...transfer, confirmationChallenge: undefined }, device), /confirmationChallenge/);
  });
});

describe("verifyWebhook", () => {
  const secret = `whsec_${Buffer.from("a".repeat(32)).toString("base64")}`;
  const previous = `whsec_${Buffer.from("b".repeat(32)).toString("base64")}`;
  const body = JSON.stringify({
    eventId: "evt_1",
    eventType: "customer.status.changed",
    occurredAt: NOW.toISOString(),
    subscriptionId: "sub_1",
    sequence: 1,
    data: {},
  });
  const headersFor = (secrets: string[], at = new Date()) => ({
    "webhook-id": "evt_1",
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signWebhook(secrets, "evt_1", at, body),
  });

  it("verifies the service's signature and returns the event; a Headers object works too", () => {
    assert.deepEqual(verifyWebhook(headersFor([secret]), body, secret), JSON.parse(body));
    assert.deepEqual(verifyWebhook(new Headers(headersFor([secret])), new TextEncoder().encode(body), secret), JSON.parse(body));
  });

  it("during a rotation either secret verifies the two-signature header", () => {
    const h = headersFor([secret, previous]);
    assert.equal(h["webhook-signature"].split(" ").length, 2);
    assert.deepEqual(verifyWebhook(h, body, secret), JSON.parse(body));
    assert.deepEqual(verifyWebhook(h, body, previous), JSON.parse(body));
  });

  it("refuses another secret, a changed body, a stale timestamp and missing headers", () => {
    const other = `whsec_${Buffer.from("c".repeat(32)).toString("base64")}`;
    assert.throws(() => verifyWebhook(headersFor([secret]), body, other), WebhookVerificationError);
    assert.throws(() => verifyWebhook(headersFor([secret]), body.replace("sub_1", "sub_2"), secret), WebhookVerificationError);
    assert.throws(() => verifyWebhook(headersFor([secret], new Date(Date.now() - 10 * 60_000)), body, secret), WebhookVerificationError);
    assert.throws(() => verifyWebhook({}, body, secret), WebhookVerificationError);
  });
});
