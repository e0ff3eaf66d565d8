/**
 * npm run demo: the customer journey against a running server, over HTTP, as a partner would
 * call it, with the typed client (packages/client): Idempotency-Keys and retries are the
 * client's, the device assertion is its deviceAssertion. Prints each step and exits non-zero on
 * any surprise.
 *   BASE_URL (default http://localhost:3000), PARTNER_KEY (default sandbox-demo-key)
 * The onboarding (customer and beneficiary) is scripts/lib/onboarding.ts, shared with the benchmarks
 * and the tests; the benchmarks (bench/lib/partner.ts) reuse registerDevice and deviceAssertion.
 */
import { randomUUID } from "node:crypto";
import { CompactSign, compactVerify, createRemoteJWKSet, exportJWK, generateKeyPair } from "jose";
import { createRemitClient, deviceAssertion as clientDeviceAssertion, type RemitClient } from "@remit-core/client";
import { httpCaller, onboardCustomer, validBeneficiary } from "./lib/onboarding";

const BASE = (process.env.BASE_URL ?? "http://localhost:3000").replace(/\/$/, "");
const KEY = process.env.PARTNER_KEY ?? "sandbox-demo-key";

class Surprise extends Error {}

/** A client for the partner's calls, acting for the customer whose token is given. */
const clientFor = (token?: string): RemitClient => createRemitClient({ baseUrl: BASE, subscriptionKey: KEY, accessToken: token });

/** The answer's data when its status is the one expected; a Surprise otherwise. */
async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>, expect = 200): Promise<T> {
  const { data, error, response } = await call;
  if (response.status !== expect) {
    throw new Surprise(`${response.url.replace(BASE, "")}: expected ${expect}, got ${response.status} ${JSON.stringify(error ?? data)}`);
  }
  return data as T;
}

function step(label: string, detail = ""): void {
  console.log(`✔ ${label}${detail ? `  ${detail}` : ""}`);
}

async function poll<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (let delay = 250; ; delay = Math.min(delay * 2, 2000)) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Surprise(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, delay));
  }
}

/** A customer onboarded (registered, profile in, KYC approved, VALID): scripts/lib/onboarding.ts, the steps printed. */
export async function registerAndOnboard(email = `demo.${randomUUID().slice(0, 8)}@example.com`) {
  const { token } = await onboardCustomer(httpCaller(BASE, KEY), { identifier: email, onStep: step });
  return { token, email };
}

export async function registerDevice(token: string) {
  const api = clientFor(token);
  const { privateKey, publicKey } = await generateKeyPair("RS256", { modulusLength: 2048, extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const start = await ok(api.POST("/v1/auth/device-registration/start", { body: {} }));
  const proof = await new CompactSign(
    new TextEncoder().encode(
      JSON.stringify({ device_registration_id: start.deviceRegistrationId, challenge: start.challenge, iat: Math.floor(Date.now() / 1000) }),
    ),
  )
    .setProtectedHeader({ alg: "RS256", typ: "JWT" })
    .sign(privateKey);
  const device = await ok(
    api.POST("/v1/auth/device-registration/complete", {
      body: { deviceRegistrationId: start.deviceRegistrationId, publicKey: publicJwk as never, deviceName: "Demo phone", proof },
    }),
    201,
  );
  step("device registered", device.deviceId);
  return { privateKey, deviceId: device.deviceId, kid: device.kid };
}

export async function quoteAndAccept(token: string, beneficiaryId: string, originAmount = "100.000000") {
  const api = clientFor(token);
  const quote = await ok(api.POST("/v1/core/quotes", { body: { originAmount, originCurrency: "USD", destinationCurrency: "MXN", beneficiaryId } }));
  const jwks = createRemoteJWKSet(new URL(`${BASE}/.well-known/jwks.json`));
  const verified = await compactVerify(quote.signedQuote, jwks, { algorithms: ["RS256"] });
  const claims = JSON.parse(new TextDecoder().decode(verified.payload));
  if (claims.quote_id !== quote.quoteId) throw new Surprise("signedQuote does not carry the quoteId");
  step(
    "quote",
    `${quote.originAmount} ${quote.originCurrency} → ${quote.destinationAmount} ${quote.destinationCurrency} at ${quote.fxRate}; signature verified`,
  );
  const quoteId = { params: { path: { quoteId: quote.quoteId } } };
  const disclosure = await ok(api.GET("/v1/core/quotes/{quoteId}/disclosure", { ...quoteId, headers: { "accept-language": "fr" } }));
  step("disclosure read", `language ${disclosure.language}: ${disclosure.content.split("\n")[0]}`);
  const accepted = await ok(
    api.POST("/v1/core/quotes/{quoteId}/accept", { ...quoteId, body: { disclosureToken: disclosure.disclosureToken, purposeOfTransfer: "FAMILY_SUPPORT" } }),
    201,
  );
  step("quote accepted", `transfer ${accepted.transferId} ${accepted.transferStatus}`);
  return accepted.transferId;
}

/** The device's assertion for a validated transfer (the client's deviceAssertion, spec 5.3). */
export function deviceAssertion(
  device: { privateKey: CryptoKey; deviceId: string; kid: string },
  transfer: { transferId: string; originAmount: string; originCurrency: string; beneficiaryId: string; confirmationChallenge?: string | null },
) {
  return clientDeviceAssertion(transfer, device);
}

/** Submit, fast-check, confirm, fund, and the payout network to paid. */
export async function completeTransfer(
  token: string,
  device: { privateKey: CryptoKey; deviceId: string; kid: string },
  transferId: string,
  beneficiaryId: string,
  destinationIdentifier = "002010077777777771",
) {
  const api = clientFor(token);
  const transfer = { params: { path: { transferId } } };
  const submitted = await ok(
    api.POST("/v1/core/transfers/{transferId}/submit", {
      ...transfer,
      body: { beneficiaryId, payoutMethod: { methodType: "BANK_TRANSFER", destinationIdentifier }, purposeOfTransfer: "FAMILY_SUPPORT" },
    }),
    202,
  );
  step("submitted", `destination ${submitted.payoutMethod?.destinationIdentifierMasked}, fast-check expected by ${submitted.fastCheckExpectedBy}`);
  const read = () => ok(api.GET("/v1/core/transfers/{transferId}", transfer));
  const validated = await poll("validated", read, (t) => t.transferStatus !== "registered");
  if (validated.transferStatus !== "validated") throw new Surprise(`fast-check ended in ${validated.transferStatus}`);
  step("fast-check passed", "validated");
  const confirmed = await ok(
    api.POST("/v1/core/transfers/{transferId}/confirm", { ...transfer, body: { deviceAssertion: await deviceAssertion(device, validated) } }),
  );
  const fundingSessionId = confirmed.fundingSession!.fundingSessionId;
  step("confirmed on the device", `funding session ${fundingSessionId}`);
  await ok(api.POST("/v1/sandbox/funding-sessions/{fundingSessionId}/complete", { params: { path: { fundingSessionId } }, body: { outcome: "SUCCEEDED" } }));
  await poll("funded", read, (t) => t.transferStatus === "funded");
  step("funded");
  for (const to of ["topay", "reqpay", "paid"] as const) {
    const moved = await ok(api.POST("/v1/sandbox/transfers/{transferId}/advance", { ...transfer, body: { to } }));
    step("payout network", moved.transferStatus);
  }
  const final = await read();
  if (final.transferStatus !== "paid") throw new Surprise(`final state ${final.transferStatus}`);
  return final;
}

async function main() {
  console.log(`Demo journey against ${BASE}`);
  await ok(clientFor().GET("/v1/auth/health"));
  const { token } = await registerAndOnboard();
  const device = await registerDevice(token);
  const api = clientFor(token);
  const beneficiary = { beneficiaryId: await validBeneficiary(httpCaller(BASE, KEY), token) };
  step("beneficiary VALID", beneficiary.beneficiaryId);
  const transferId = await quoteAndAccept(token, beneficiary.beneficiaryId);
  const final = await completeTransfer(token, device, transferId, beneficiary.beneficiaryId);
  // What a partner that missed webhooks would read: the transfer's story from the events API.
  const events = await ok(api.GET("/v1/core/events", { params: { query: { type: "transfer.state.changed" } } }));
  step("events", `${events.items.length} transfer events, sequence ${events.items[0]?.sequence}..${events.items.at(-1)?.sequence}`);
  console.log(`\nFinal: transfer ${transferId} ${final.transferStatus} (${final.stateHistory.map((h) => h.reasonCode).join(" → ")})`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    console.error(`✘ ${err instanceof Surprise ? err.message : err}`);
    process.exit(1);
  });
}
