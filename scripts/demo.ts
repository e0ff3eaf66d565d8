/**
 * npm run demo: the customer journey against a running server, over HTTP, as a partner would
 * call it. Prints each step and exits non-zero on any surprise.
 *   BASE_URL (default http://localhost:3000), PARTNER_KEY (default sandbox-demo-key)
 */
import { randomUUID } from "node:crypto";
import { CompactSign, compactVerify, createRemoteJWKSet, exportJWK, generateKeyPair } from "jose";

const BASE = (process.env.BASE_URL ?? "http://localhost:3000").replace(/\/$/, "");
const KEY = process.env.PARTNER_KEY ?? "sandbox-demo-key";

class Surprise extends Error {}

async function api<T = any>(
  method: string,
  path: string,
  opts: { body?: unknown; token?: string; expect?: number; headers?: Record<string, string> } = {},
): Promise<T> {
  const headers: Record<string, string> = { "ocp-apim-subscription-key": KEY, accept: "application/json", ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  if (method === "POST" && path.startsWith("/v1/core")) headers["idempotency-key"] = randomUUID();
  const res = await fetch(`${BASE}${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await res.text();
  const expect = opts.expect ?? 200;
  if (res.status !== expect) throw new Surprise(`${method} ${path}: expected ${expect}, got ${res.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
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

export async function registerAndOnboard(email = `demo.${randomUUID().slice(0, 8)}@example.com`) {
  const start = await api("POST", "/v1/auth/register/start", { body: { identifier: email } });
  const { otp } = await api("GET", `/v1/sandbox/otp?identifier=${encodeURIComponent(email)}`);
  await api("POST", "/v1/auth/register/verify-otp", { body: { registrationId: start.registrationId, otp } });
  const tokens = await api("POST", "/v1/auth/register/set-password", {
    body: { registrationId: start.registrationId, password: "correct horse battery staple" },
    expect: 201,
  });
  step("registered", email);
  const token = tokens.accessToken as string;
  await api("POST", "/v1/core/profile", {
    token,
    body: {
      firstName: "Ana",
      lastName: "García",
      dateOfBirth: "1988-03-14",
      nationality: "MEX",
      residenceCountry: "USA",
      residenceAddress: { addressLine1: "100 Congress Ave", city: "Austin", region: "TX", postalCode: "78701", country: "USA" },
    },
  });
  step("profile submitted");
  const kyc = await api("POST", "/v1/core/kyc-sessions", { token });
  await api("POST", `/v1/sandbox/kyc-sessions/${kyc.kycSessionId}/complete`, { token, body: { outcome: "APPROVED" } });
  const profile = await poll(
    "customer VALID",
    () => api("GET", "/v1/core/profile", { token }),
    (p) => p.status === "VALID",
  );
  step("KYC approved", `status ${profile.status}, kycStatus ${profile.kycStatus}`);
  return { token, email };
}

export async function registerDevice(token: string) {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { modulusLength: 2048, extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const start = await api("POST", "/v1/auth/device-registration/start", { token, body: {} });
  const proof = await new CompactSign(
    new TextEncoder().encode(
      JSON.stringify({ device_registration_id: start.deviceRegistrationId, challenge: start.challenge, iat: Math.floor(Date.now() / 1000) }),
    ),
  )
    .setProtectedHeader({ alg: "RS256", typ: "JWT" })
    .sign(privateKey);
  const device = await api("POST", "/v1/auth/device-registration/complete", {
    token,
    body: { deviceRegistrationId: start.deviceRegistrationId, publicKey: publicJwk, deviceName: "Demo phone", proof },
    expect: 201,
  });
  step("device registered", device.deviceId);
  return { privateKey, deviceId: device.deviceId as string, kid: device.kid as string };
}

export async function quoteAndAccept(token: string, beneficiaryId: string, originAmount = "100.000000") {
  const quote = await api("POST", "/v1/core/quotes", { token, body: { originAmount, originCurrency: "USD", destinationCurrency: "MXN", beneficiaryId } });
  const jwks = createRemoteJWKSet(new URL(`${BASE}/.well-known/jwks.json`));
  const verified = await compactVerify(quote.signedQuote, jwks, { algorithms: ["RS256"] });
  const claims = JSON.parse(new TextDecoder().decode(verified.payload));
  if (claims.quote_id !== quote.quoteId) throw new Surprise("signedQuote does not carry the quoteId");
  step(
    "quote",
    `${quote.originAmount} ${quote.originCurrency} → ${quote.destinationAmount} ${quote.destinationCurrency} at ${quote.fxRate}; signature verified`,
  );
  const disclosure = await api("GET", `/v1/core/quotes/${quote.quoteId}/disclosure`, { token, headers: { "accept-language": "fr" } });
  step("disclosure read", `language ${disclosure.language}: ${disclosure.content.split("\n")[0]}`);
  const accepted = await api("POST", `/v1/core/quotes/${quote.quoteId}/accept`, {
    token,
    body: { disclosureToken: disclosure.disclosureToken, purposeOfTransfer: "FAMILY_SUPPORT" },
    expect: 201,
  });
  step("quote accepted", `transfer ${accepted.transferId} ${accepted.transferStatus}`);
  return accepted.transferId as string;
}

export async function deviceAssertion(
  device: { privateKey: CryptoKey; deviceId: string; kid: string },
  transfer: { transferId: string; originAmount: string; originCurrency: string; beneficiaryId: string; confirmationChallenge: string },
) {
  const claims = {
    transfer_id: transfer.transferId,
    amount: transfer.originAmount,
    currency: transfer.originCurrency,
    beneficiary_id: transfer.beneficiaryId,
    device_id: device.deviceId,
    nonce: randomUUID(),
    challenge: transfer.confirmationChallenge,
    iat: Math.floor(Date.now() / 1000),
  };
  return new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
    .setProtectedHeader({ alg: "RS256", kid: device.kid, typ: "JWT" })
    .sign(device.privateKey);
}

/** Submit, fast-check, confirm, fund, and the payout network to paid. */
export async function completeTransfer(
  token: string,
  device: { privateKey: CryptoKey; deviceId: string; kid: string },
  transferId: string,
  beneficiaryId: string,
  destinationIdentifier = "002010077777777771",
) {
  const submitted = await api("POST", `/v1/core/transfers/${transferId}/submit`, {
    token,
    body: { beneficiaryId, payoutMethod: { methodType: "BANK_TRANSFER", destinationIdentifier }, purposeOfTransfer: "FAMILY_SUPPORT" },
    expect: 202,
  });
  step("submitted", `destination ${submitted.payoutMethod.destinationIdentifierMasked}, fast-check expected by ${submitted.fastCheckExpectedBy}`);
  const validated = await poll(
    "validated",
    () => api("GET", `/v1/core/transfers/${transferId}`, { token }),
    (t) => t.transferStatus !== "registered",
  );
  if (validated.transferStatus !== "validated") throw new Surprise(`fast-check ended in ${validated.transferStatus}`);
  step("fast-check passed", "validated");
  const confirmed = await api("POST", `/v1/core/transfers/${transferId}/confirm`, {
    token,
    body: { deviceAssertion: await deviceAssertion(device, validated) },
  });
  step("confirmed on the device", `funding session ${confirmed.fundingSession.fundingSessionId}`);
  await api("POST", `/v1/sandbox/funding-sessions/${confirmed.fundingSession.fundingSessionId}/complete`, { token, body: { outcome: "SUCCEEDED" } });
  await poll(
    "funded",
    () => api("GET", `/v1/core/transfers/${transferId}`, { token }),
    (t) => t.transferStatus === "funded",
  );
  step("funded");
  for (const to of ["topay", "reqpay", "paid"]) {
    const moved = await api("POST", `/v1/sandbox/transfers/${transferId}/advance`, { token, body: { to } });
    step("payout network", moved.transferStatus);
  }
  const final = await api("GET", `/v1/core/transfers/${transferId}`, { token });
  if (final.transferStatus !== "paid") throw new Surprise(`final state ${final.transferStatus}`);
  return final;
}

async function main() {
  console.log(`Demo journey against ${BASE}`);
  await api("GET", "/v1/auth/health");
  const { token } = await registerAndOnboard();
  const device = await registerDevice(token);
  const beneficiary = await api("POST", "/v1/core/beneficiaries", {
    token,
    body: {
      firstName: "Lucía",
      lastName: "Hernández",
      dateOfBirth: "1991-06-21",
      nationality: "MEX",
      countryOfResidence: "MEX",
      relationshipToCustomer: "FAMILY",
    },
    expect: 202,
  });
  const screened = await poll(
    "beneficiary screening",
    () => api("GET", `/v1/core/beneficiaries/${beneficiary.beneficiaryId}`, { token }),
    (b) => b.state !== "PENDING",
  );
  if (screened.state !== "VALID") throw new Surprise(`beneficiary ${screened.state}`);
  step("beneficiary VALID", beneficiary.beneficiaryId);
  const transferId = await quoteAndAccept(token, beneficiary.beneficiaryId);
  const final = await completeTransfer(token, device, transferId, beneficiary.beneficiaryId);
  console.log(`\nFinal: transfer ${transferId} ${final.transferStatus} (${final.stateHistory.map((h: { reasonCode: string }) => h.reasonCode).join(" → ")})`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    console.error(`✘ ${err instanceof Surprise ? err.message : err}`);
    process.exit(1);
  });
}
