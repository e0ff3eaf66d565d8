/**
 * The typed client (packages/client) against the real service, as a partner would use it: a
 * quote signed with signPartnerQuote is accepted, a deviceAssertion confirms the transfer,
 * verifyWebhook verifies real deliveries (also both signatures of a secret rotation), and the
 * events API reads through the same client. Onboarding uses the shared test helpers.
 */
import assert from "node:assert/strict";
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { createRemitClient, deviceAssertion, signPartnerQuote, verifyWebhook, WebhookVerificationError, type RemitClient } from "@remit-core/client";
import {
  BASE_URL,
  CLABE,
  PARTNER_KEY,
  eventually,
  putPartner,
  receivePartnerWebhooks,
  registerDevice,
  serverSeconds,
  validBeneficiary,
  validCustomer,
  type Customer,
  type Delivery,
  type PartnerSettings,
} from "../support";

const KID = `client-itest-${randomUUID().slice(0, 8)}`;
const partnerKey = generateKeyPairSync("rsa", { modulusLength: 2048 });
const privateJwk = { ...partnerKey.privateKey.export({ format: "jwk" }), kid: KID };
const publicJwk = { ...partnerKey.publicKey.export({ format: "jwk" }), kid: KID, use: "sig", alg: "RS256" };

let previous: PartnerSettings;
let hooks: Awaited<ReturnType<typeof receivePartnerWebhooks>>;
let c: Customer;
let client: RemitClient;

before(async () => {
  previous = await putPartner({ pricingMode: "SERVICE_PRICED" });
  hooks = await receivePartnerWebhooks();
  c = await validCustomer();
  client = createRemitClient({ baseUrl: BASE_URL, subscriptionKey: PARTNER_KEY, accessToken: () => c.token });
});

after(async () => {
  await putPartner({ pricingMode: "SERVICE_PRICED", jwks: previous.jwks });
  await hooks.close();
});

const iso = (epoch: number) => new Date(epoch * 1000).toISOString().replace(".000Z", "Z");
const mine = (d: Delivery) => d.body?.subscriptionId === c.subscriptionId;

test("the typed client: a signPartnerQuote quote is accepted, a deviceAssertion confirms, verifyWebhook verifies real deliveries", async () => {
  const ben = await validBeneficiary(c);
  // The current rate, priced by the service, for claims inside the pricing envelope.
  const priced = await client.POST("/v1/core/quotes", {
    body: { originAmount: "100.000000", originCurrency: "USD", destinationCurrency: "MXN", beneficiaryId: ben.beneficiaryId },
  });
  assert.equal(priced.response.status, 200, JSON.stringify(priced.error));
  const fxRate = priced.data!.fxRate;
  const receive = priced.data!.destinationAmount.replace(/0+$/, "").replace(/\.$/, "");

  // Partner-signed pricing: the partner publishes its JWKS and signs with the client helper.
  const settings = await putPartner({ pricingMode: "PARTNER_SIGNED", jwks: { keys: [publicJwk] } });
  const iat = (await serverSeconds()) - 1;
  const claims = {
    quote_signature_v1: "v1" as const,
    quote_id: `pq_${randomUUID()}`,
    jti: randomUUID(),
    partner_id: settings.partnerId,
    partner_quote_seq: Date.now(),
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
    exp: iat + 60,
    issued_at: iso(iat),
    expires_at: iso(iat + 60),
  };
  const partnerQuote = await signPartnerQuote(claims, privateJwk);
  const quote = await client.POST("/v1/core/quotes", {
    body: { originAmount: "100.000000", originCurrency: "USD", destinationCurrency: "MXN", beneficiaryId: ben.beneficiaryId, partnerQuote },
  });
  assert.equal(quote.response.status, 200, JSON.stringify(quote.error));
  assert.equal(quote.data!.quoteId, claims.quote_id);
  assert.equal(quote.data!.signedQuote, partnerQuote);

  const disclosure = await client.GET("/v1/core/quotes/{quoteId}/disclosure", { params: { path: { quoteId: claims.quote_id } } });
  assert.equal(disclosure.response.status, 200, JSON.stringify(disclosure.error));
  const accepted = await client.POST("/v1/core/quotes/{quoteId}/accept", {
    params: { path: { quoteId: claims.quote_id } },
    body: { disclosureToken: disclosure.data!.disclosureToken, purposeOfTransfer: "FAMILY_SUPPORT" },
  });
  assert.equal(accepted.response.status, 201, JSON.stringify(accepted.error));
  const transferId = accepted.data!.transferId;
  await putPartner({ pricingMode: "SERVICE_PRICED", jwks: previous.jwks });

  // Submit, fast-check, then the device confirms with the client's assertion.
  const device = await registerDevice(c);
  const submitted = await client.POST("/v1/core/transfers/{transferId}/submit", {
    params: { path: { transferId } },
    body: {
      beneficiaryId: ben.beneficiaryId,
      payoutMethod: { methodType: "BANK_TRANSFER", destinationIdentifier: CLABE },
      purposeOfTransfer: "FAMILY_SUPPORT",
    },
  });
  assert.equal(submitted.response.status, 202, JSON.stringify(submitted.error));
  const validated = await eventually(
    async () => {
      const t = await client.GET("/v1/core/transfers/{transferId}", { params: { path: { transferId } } });
      return t.data?.transferStatus === "validated" ? t.data : undefined;
    },
    30_000,
    "validated",
  );
  const confirmed = await client.POST("/v1/core/transfers/{transferId}/confirm", {
    params: { path: { transferId } },
    body: { deviceAssertion: await deviceAssertion(validated, device, { iat: await serverSeconds() }) },
  });
  assert.equal(confirmed.response.status, 200, JSON.stringify(confirmed.error));
  assert.equal(confirmed.data!.transferStatus, "funding");

  // Real deliveries verify with the partner's secret; a tampered body does not.
  const delivered = await eventually(
    () => Promise.resolve(hooks.deliveries.find((d) => mine(d) && d.body.data?.state === "funding")),
    20_000,
    "funding webhook",
  );
  const event = verifyWebhook(delivered.headers as Record<string, string>, delivered.rawBody, hooks.secret!);
  assert.deepEqual(event, delivered.body);
  assert.throws(
    () => verifyWebhook(delivered.headers as Record<string, string>, delivered.rawBody.replace("funding", "funded"), hooks.secret!),
    WebhookVerificationError,
  );
  assert.throws(
    () => verifyWebhook(delivered.headers as Record<string, string>, delivered.rawBody, "whsec_" + Buffer.from("not the secret").toString("base64")),
    WebhookVerificationError,
  );

  // Secret rotation: the next delivery carries two signatures; either secret verifies it.
  const oldSecret = hooks.secret!;
  const rotated = await putPartner({ rotateWebhookSecret: true });
  assert.notEqual(rotated.webhookSecret, oldSecret);
  const funded = await client.POST("/v1/sandbox/funding-sessions/{fundingSessionId}/complete", {
    params: { path: { fundingSessionId: confirmed.data!.fundingSession!.fundingSessionId } },
    body: { outcome: "SUCCEEDED" },
  });
  assert.equal(funded.response.status, 200, JSON.stringify(funded.error));
  const after = await eventually(() => Promise.resolve(hooks.deliveries.find((d) => mine(d) && d.body.data?.state === "funded")), 20_000, "funded webhook");
  assert.equal(String(after.headers["webhook-signature"]).split(" ").length, 2);
  for (const secret of [oldSecret, rotated.webhookSecret!])
    assert.deepEqual(verifyWebhook(after.headers as Record<string, string>, after.rawBody, secret), after.body);

  // The events API through the client: the transfer's story in sequence order.
  const events = await client.GET("/v1/core/events", { params: { query: { type: "transfer.state.changed", limit: 50 } } });
  assert.equal(events.response.status, 200, JSON.stringify(events.error));
  const story = events.data!.items.flatMap((e) => (e.eventType === "transfer.state.changed" && e.data.transferId === transferId ? [e.data.state] : []));
  assert.deepEqual(story, ["registered", "validated", "funding", "funded"]);
});
