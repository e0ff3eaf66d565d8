/**
 * Shared setup of the confirm and journey integration tests (not a test file): onboarded customers
 * per sandbox corridor, registered devices, screened beneficiaries, validated transfers, and a
 * device-assertion builder that can also produce every malformed or hostile variant (other
 * algorithms, other keys, wrong claims). Everything goes through the public HTTP API; the
 * assertion's iat is always taken from the SERVER clock (it only moves forward and is shared).
 */
import assert from "node:assert/strict";
import { constants, createHmac, createPublicKey, generateKeyPairSync, randomInt, randomUUID, sign, type KeyObject } from "node:crypto";
import { sandboxTestIdentifiers, type SandboxCorridor } from "@/lib/payout-identifiers/sandbox-identifiers";
import { call, errorOf, eventually, registerCustomer, type CallResult } from "../support/client";

export { call, errorOf, eventually, type CallResult } from "../support/client";

/** Generous: CI runs with the default delays (screening 1 s, fast-check 1.5 s) on a busy machine. */
const POLL_MS = 30_000;

// ---------------------------------------------------------------------------------------------
// Assertions on responses

/** Asserts status, error code and the envelope shape of decisions 8; returns the error. */
export function assertError(res: CallResult, status: number, code: string) {
  assert.ok(res.status < 500, `server error ${res.status}: ${res.text}`);
  assert.equal(res.status, status, `expected ${status} ${code}, got ${res.status}: ${res.text}`);
  const error = errorOf(res);
  assert.equal(error.code, code, res.text);
  assert.deepEqual(Object.keys(error).sort(), ["code", "details", "hint", "message", "remediation"], res.text);
  return error;
}

/** 422 device.assertionInvalid naming exactly this verification step. */
export function assertFailedCheck(res: CallResult, failedCheck: string) {
  const error = assertError(res, 422, "device.assertionInvalid");
  assert.equal(error.details?.failedCheck, failedCheck, res.text);
  return error;
}

// ---------------------------------------------------------------------------------------------
// Corridors (decisions 6)

export interface CorridorSetup {
  code: SandboxCorridor;
  originCurrency: string;
  destinationCurrency: string;
  /** Alpha-3 of the customer's residence (the corridor's origin). */
  originCountry: string;
  beneficiaryCountry: string;
  profile: () => Record<string, unknown>;
}

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** A random Latin surname far from every sandbox watch-list entry, so identity resolution never links two test customers. */
export function uniqueSurname(prefix = "Conf"): string {
  let s = "";
  for (let i = 0; i < 10; i++) s += LETTERS[randomInt(LETTERS.length)];
  return `${prefix}${s}`;
}

function profileIn(country: string, address: Record<string, unknown>) {
  return () => ({
    firstName: "Ana",
    lastName: uniqueSurname(),
    dateOfBirth: "1988-03-14",
    nationality: country,
    residenceCountry: country,
    residenceAddress: { ...address, country },
  });
}

export const CORRIDORS: Record<SandboxCorridor, CorridorSetup> = {
  "US-MX": {
    code: "US-MX",
    originCountry: "USA",
    originCurrency: "USD",
    destinationCurrency: "MXN",
    beneficiaryCountry: "MEX",
    profile: profileIn("USA", { addressLine1: "100 Congress Ave", city: "Austin", region: "TX", postalCode: "78701" }),
  },
  "US-PH": {
    code: "US-PH",
    originCountry: "USA",
    originCurrency: "USD",
    destinationCurrency: "PHP",
    beneficiaryCountry: "PHL",
    profile: profileIn("USA", { addressLine1: "1 Market Street", city: "San Francisco", region: "CA", postalCode: "94105" }),
  },
  "GB-NG": {
    code: "GB-NG",
    originCountry: "GBR",
    originCurrency: "GBP",
    destinationCurrency: "NGN",
    beneficiaryCountry: "NGA",
    profile: profileIn("GBR", { addressLine1: "10 Downing Street", city: "London", postalCode: "SW1A 2AA" }),
  },
  "FR-SN": {
    code: "FR-SN",
    originCountry: "FRA",
    originCurrency: "EUR",
    destinationCurrency: "XOF",
    beneficiaryCountry: "SEN",
    profile: profileIn("FRA", { addressLine1: "1 Rue de Rivoli", city: "Paris", postalCode: "75001" }),
  },
  "ES-CO": {
    code: "ES-CO",
    originCountry: "ESP",
    originCurrency: "EUR",
    destinationCurrency: "COP",
    beneficiaryCountry: "COL",
    profile: profileIn("ESP", { addressLine1: "Calle de Alcalá 1", city: "Madrid", postalCode: "28014" }),
  },
};

// ---------------------------------------------------------------------------------------------
// Sandbox: clock and partner

/** The server's clock (advancing by 0 reads it). */
export async function serverNow(): Promise<Date> {
  const res = await call("POST", "/v1/sandbox/clock", { body: { advanceSeconds: 0 } });
  assert.equal(res.status, 200, res.text);
  return new Date(res.body.now);
}

export async function advanceClock(seconds: number): Promise<Date> {
  const res = await call("POST", "/v1/sandbox/clock", { body: { advanceSeconds: seconds } });
  assert.equal(res.status, 200, res.text);
  return new Date(res.body.now);
}

/** The server's time in whole seconds (an assertion's iat). */
export async function serverSeconds(): Promise<number> {
  return Math.floor((await serverNow()).getTime() / 1000);
}

/**
 * The server's whole second, read early in that second (its millisecond part below 300), so a
 * request sent right away is judged within the same second or the next. Needed only where one
 * second decides the outcome (iat exactly 61 s ahead).
 */
export async function serverSecondsEarly(): Promise<number> {
  for (let i = 0; i < 5; i++) {
    const now = (await serverNow()).getTime();
    const ms = now % 1000;
    if (ms < 300) return Math.floor(now / 1000);
    await new Promise((r) => setTimeout(r, 1000 - ms + 10));
  }
  throw new Error("could not read the server clock early in a second");
}

/** Service pricing (another test file may have switched the sandbox partner to PARTNER_SIGNED). */
export async function useServicePricing(): Promise<void> {
  const res = await call("PUT", "/v1/sandbox/partner", { body: { pricingMode: "SERVICE_PRICED" } });
  assert.equal(res.status, 200, res.text);
}

// ---------------------------------------------------------------------------------------------
// Customers

export interface Customer {
  identifier: string;
  token: string;
  subscriptionId: string;
  corridor: CorridorSetup;
}

async function awaitCustomerStatus(c: { token: string }, status: string) {
  let last: CallResult | undefined;
  await eventually(
    async () => {
      last = await call("GET", "/v1/core/profile", { token: c.token });
      return last.status === 200 && last.body.status === status;
    },
    POLL_MS,
    `customer ${status}`,
  ).catch((err: Error) => {
    throw new Error(`${err.message}; last read: ${last?.text}`);
  });
}

/** A registered customer with a profile resident in the corridor's origin; PENDING (KYC not done). */
export async function pendingCustomer(corridor: SandboxCorridor = "US-MX"): Promise<Customer> {
  const setup = CORRIDORS[corridor];
  const reg = await registerCustomer();
  const c: Customer = { identifier: reg.identifier, token: reg.tokens.accessToken, subscriptionId: reg.tokens.subscriptionId, corridor: setup };
  const res = await call("POST", "/v1/core/profile", { token: c.token, body: setup.profile() });
  assert.equal(res.status, 200, res.text);
  return c;
}

/** A VALID customer of the corridor's origin: registered, profile, KYC approved. */
export async function validCustomer(corridor: SandboxCorridor = "US-MX"): Promise<Customer> {
  const c = await pendingCustomer(corridor);
  const kyc = await call("POST", "/v1/core/kyc-sessions", { token: c.token });
  assert.equal(kyc.status, 200, kyc.text);
  const done = await call("POST", `/v1/sandbox/kyc-sessions/${kyc.body.kycSessionId}/complete`, { token: c.token, body: { outcome: "APPROVED" } });
  assert.equal(done.status, 200, done.text);
  await awaitCustomerStatus(c, "VALID");
  return c;
}

// ---------------------------------------------------------------------------------------------
// Devices

export interface KeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** Public RSA JWK (kty, n, e). */
  publicJwk: { kty: string; n: string; e: string };
}

export interface Device extends KeyPair {
  deviceId: string;
  kid: string;
}

export function newKeyPair(modulusLength = 2048): KeyPair {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength });
  const jwk = publicKey.export({ format: "jwk" }) as { kty: string; n: string; e: string };
  return { privateKey, publicKey, publicJwk: { kty: jwk.kty, n: jwk.n, e: jwk.e } };
}

const b64 = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");

export type Alg = "RS256" | "RS512" | "PS256" | "HS256" | "none";

/** A compact JWS over exactly this header and payload, signed as `alg` says (HS256: `key` is the HMAC secret). */
export function compactJws(header: Record<string, unknown>, payload: unknown, key: KeyObject | string | Buffer | null, alg: Alg = "RS256"): string {
  const input = `${b64(header)}.${b64(payload)}`;
  const data = Buffer.from(input);
  let signature: Buffer;
  switch (alg) {
    case "RS256":
      signature = sign("sha256", data, key as KeyObject);
      break;
    case "RS512":
      signature = sign("sha512", data, key as KeyObject);
      break;
    case "PS256":
      signature = sign("sha256", data, { key: key as KeyObject, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 });
      break;
    case "HS256":
      signature = createHmac("sha256", key as string | Buffer)
        .update(data)
        .digest();
      break;
    case "none":
      signature = Buffer.alloc(0);
      break;
  }
  return `${input}.${signature.toString("base64url")}`;
}

/** Registers a device with this key pair (a new one by default): start, proof signed with the key, complete (201). */
export async function registerDevice(c: { token: string }, keys: KeyPair = newKeyPair(), deviceName = "Test phone"): Promise<Device> {
  const start = await call("POST", "/v1/auth/device-registration/start", { token: c.token, body: {} });
  assert.equal(start.status, 200, start.text);
  const proof = compactJws(
    { alg: "RS256", typ: "JWT" },
    { device_registration_id: start.body.deviceRegistrationId, challenge: start.body.challenge, iat: await serverSeconds() },
    keys.privateKey,
  );
  const done = await call("POST", "/v1/auth/device-registration/complete", {
    token: c.token,
    body: { deviceRegistrationId: start.body.deviceRegistrationId, publicKey: keys.publicJwk, deviceName, proof },
  });
  assert.equal(done.status, 201, done.text);
  return { ...keys, deviceId: done.body.deviceId, kid: done.body.kid };
}

export async function deactivateDevice(c: { token: string }, device: Device): Promise<void> {
  const res = await call("POST", `/v1/auth/devices/${device.deviceId}/deactivate`, { token: c.token });
  assert.equal(res.status, 200, res.text);
}

/** The public key as PEM (the HS256 "public key as secret" attack). */
export function publicPem(keys: KeyPair): string {
  return createPublicKey(keys.privateKey).export({ type: "spki", format: "pem" }).toString();
}

// ---------------------------------------------------------------------------------------------
// Beneficiaries, quotes, transfers

/** A VALID beneficiary resident in the corridor's destination. */
export async function validBeneficiary(c: Customer): Promise<string> {
  const res = await call("POST", "/v1/core/beneficiaries", {
    token: c.token,
    body: { firstName: "Lucia", lastName: uniqueSurname("Benef"), countryOfResidence: c.corridor.beneficiaryCountry, relationshipToCustomer: "FAMILY" },
  });
  assert.equal(res.status, 202, res.text);
  const id = res.body.beneficiaryId as string;
  let last: CallResult | undefined;
  await eventually(
    async () => {
      last = await call("GET", `/v1/core/beneficiaries/${id}`, { token: c.token });
      assert.equal(last.status, 200, last.text);
      return last.body.state !== "PENDING";
    },
    POLL_MS,
    `screening of ${id}`,
  ).catch((err: Error) => {
    throw new Error(`${err.message}; last read: ${last?.text}`);
  });
  assert.equal(last!.body.state, "VALID", last!.text);
  return id;
}

/** Quote in the corridor currencies → disclosure → accept (201): a transfer in registered. */
export async function acceptedTransfer(c: Customer, beneficiaryId: string, originAmount = "100.000000"): Promise<{ transferId: string; quote: any }> {
  const quote = await call("POST", "/v1/core/quotes", {
    token: c.token,
    body: { originAmount, originCurrency: c.corridor.originCurrency, destinationCurrency: c.corridor.destinationCurrency, beneficiaryId },
  });
  assert.equal(quote.status, 200, quote.text);
  const disclosure = await call("GET", `/v1/core/quotes/${quote.body.quoteId}/disclosure`, { token: c.token });
  assert.equal(disclosure.status, 200, disclosure.text);
  const accepted = await call("POST", `/v1/core/quotes/${quote.body.quoteId}/accept`, {
    token: c.token,
    body: { disclosureToken: disclosure.body.disclosureToken, purposeOfTransfer: "FAMILY_SUPPORT" },
  });
  assert.equal(accepted.status, 201, accepted.text);
  assert.equal(accepted.body.transferStatus, "registered");
  return { transferId: accepted.body.transferId, quote: quote.body };
}

/** Submit with the corridor's first known-good bank account (202). */
export async function submitTransfer(
  c: Customer,
  transferId: string,
  beneficiaryId: string,
  destinationIdentifier: string = sandboxTestIdentifiers[c.corridor.code].bankAccounts[0],
) {
  const res = await call("POST", `/v1/core/transfers/${transferId}/submit`, {
    token: c.token,
    body: { beneficiaryId, payoutMethod: { methodType: "BANK_TRANSFER", destinationIdentifier }, purposeOfTransfer: "FAMILY_SUPPORT" },
  });
  assert.equal(res.status, 202, res.text);
  return res.body;
}

export function readTransfer(c: { token: string }, transferId: string) {
  return call("GET", `/v1/core/transfers/${transferId}`, { token: c.token });
}

/** Reads the transfer (200); in validated every read issues a new confirmationChallenge. */
export async function transferDetail(c: { token: string }, transferId: string): Promise<TransferDetail> {
  const res = await readTransfer(c, transferId);
  assert.equal(res.status, 200, res.text);
  return res.body;
}

export interface TransferDetail {
  transferId: string;
  transferStatus: string;
  originAmount: string;
  originCurrency: string;
  beneficiaryId: string;
  confirmationChallenge?: string;
  fundingSession?: { fundingSessionId: string; fundingWebviewUrl: string | null; expiresAt: string };
  stateHistory: { state: string; transitionedAt: string; reasonCode: string }[];
  [k: string]: unknown;
}

/** Polls until the transfer reaches `state`; fails early if it settles elsewhere. */
export async function awaitState(c: { token: string }, transferId: string, state: string, leaving?: string): Promise<TransferDetail> {
  let last: TransferDetail | undefined;
  await eventually(
    async () => {
      last = await transferDetail(c, transferId);
      if (leaving && last.transferStatus !== leaving && last.transferStatus !== state) {
        throw new Error(`transfer ${transferId} went to ${last.transferStatus}, not ${state}: ${JSON.stringify(last)}`);
      }
      return last.transferStatus === state;
    },
    POLL_MS,
    `transfer ${transferId} ${state}`,
  ).catch((err: Error) => {
    throw new Error(`${err.message}; last read: ${JSON.stringify(last)}`);
  });
  return last!;
}

/** Submit and wait for the fast-check: the transfer in validated (its latest read carries the challenge). */
export async function validateTransfer(c: Customer, transferId: string, beneficiaryId: string): Promise<TransferDetail> {
  await submitTransfer(c, transferId, beneficiaryId);
  return awaitState(c, transferId, "validated", "registered");
}

export interface World {
  customer: Customer;
  device: Device;
  beneficiaryId: string;
}

/** A VALID customer with one registered device and one VALID beneficiary. */
export async function world(corridor: SandboxCorridor = "US-MX"): Promise<World> {
  const customer = await validCustomer(corridor);
  const [device, beneficiaryId] = await Promise.all([registerDevice(customer), validBeneficiary(customer)]);
  return { customer, device, beneficiaryId };
}

/** A new transfer of the world's customer, accepted, submitted and validated. */
export async function validatedTransfer(w: { customer: Customer; beneficiaryId: string }, originAmount?: string): Promise<TransferDetail> {
  const { transferId } = await acceptedTransfer(w.customer, w.beneficiaryId, originAmount);
  return validateTransfer(w.customer, transferId, w.beneficiaryId);
}

// ---------------------------------------------------------------------------------------------
// Device assertions and confirm

export interface AssertionClaims {
  transfer_id: unknown;
  amount: unknown;
  currency: unknown;
  beneficiary_id: unknown;
  device_id: unknown;
  nonce: unknown;
  challenge: unknown;
  iat: unknown;
  [k: string]: unknown;
}

/** The claims a correct assertion for this transfer (as last read) carries; iat from the server clock. */
export async function claimsFor(device: { deviceId: string }, t: TransferDetail, overrides: Partial<AssertionClaims> = {}): Promise<AssertionClaims> {
  assert.ok(t.confirmationChallenge, `no confirmationChallenge on ${JSON.stringify(t)}`);
  return {
    transfer_id: t.transferId,
    amount: t.originAmount,
    currency: t.originCurrency,
    beneficiary_id: t.beneficiaryId,
    device_id: device.deviceId,
    nonce: randomUUID(),
    challenge: t.confirmationChallenge,
    iat: overrides.iat ?? (await serverSeconds()),
    ...overrides,
  };
}

/** RS256 over the claims with the device's key and its kid (header overridable). */
export function signAssertion(device: { kid: string; privateKey: KeyObject }, claims: unknown, header: Record<string, unknown> = {}): string {
  return compactJws({ alg: "RS256", kid: device.kid, typ: "JWT", ...header }, claims, device.privateKey);
}

/** A correct assertion for the transfer as last read. */
export async function validAssertion(device: Device, t: TransferDetail, overrides: Partial<AssertionClaims> = {}): Promise<string> {
  return signAssertion(device, await claimsFor(device, t, overrides));
}

export function confirm(c: { token: string }, transferId: string, deviceAssertion: unknown, idempotencyKey: string = randomUUID()) {
  return call("POST", `/v1/core/transfers/${transferId}/confirm`, { token: c.token, body: { deviceAssertion }, idempotencyKey });
}

/** Asserts a successful confirm (200, funding, a funding session) and returns its body. */
export function assertConfirmed(res: CallResult, transferId: string) {
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.transferId, transferId);
  assert.equal(res.body.transferStatus, "funding");
  assert.equal(res.body.nextStep, "OPEN_FUNDING_WEBVIEW");
  assert.ok(res.body.confirmedAt);
  assert.match(res.body.fundingSession?.fundingSessionId ?? "", /\S/, res.text);
  assert.match(res.body.fundingSession?.fundingWebviewUrl ?? "", /^https?:\/\//, res.text);
  return res.body;
}

/** Reads the transfer afresh and confirms it with a correct assertion (200). */
export async function confirmNow(w: { customer: Customer; device: Device }, transferId: string) {
  const t = await transferDetail(w.customer, transferId);
  assert.equal(t.transferStatus, "validated", JSON.stringify(t));
  const res = await confirm(w.customer, transferId, await validAssertion(w.device, t));
  return assertConfirmed(res, transferId);
}

export function completeFunding(c: { token: string }, fundingSessionId: string, outcome: "SUCCEEDED" | "FAILED" = "SUCCEEDED") {
  return call("POST", `/v1/sandbox/funding-sessions/${fundingSessionId}/complete`, { token: c.token, body: { outcome } });
}

export function advanceTransfer(c: { token: string }, transferId: string, to: "topay" | "reqpay" | "paid") {
  return call("POST", `/v1/sandbox/transfers/${transferId}/advance`, { token: c.token, body: { to } });
}
