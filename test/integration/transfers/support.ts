/**
 * Shared setup of the transfer integration tests (not a test file): VALID customers, screened MEX
 * beneficiaries, accepted quotes (registered transfers), submit, the fast-check, a registered
 * device and confirm (to reach funding), funding, the sandbox network and compliance controls.
 * Everything goes through the public HTTP API (test/integration/support/client), like scripts/demo.ts.
 * The server clock is shared and only moves forward: device proofs and assertions take their iat
 * from the server's clock, never from Date.now().
 */
import assert from "node:assert/strict";
import { randomInt, randomUUID } from "node:crypto";
import { CompactSign, exportJWK, generateKeyPair } from "jose";
import { sandboxTestIdentifiers, sandboxTestPhones } from "@/lib/payout-identifiers/sandbox-identifiers";
import { call, errorOf, eventually, loginCustomer, registerCustomer, type CallResult } from "../support/client";

export { call, errorOf, eventually, type CallResult } from "../support/client";

/** Valid US-MX identifiers (they pass the format check and the fast-check). */
export const CLABES = sandboxTestIdentifiers["US-MX"].bankAccounts;
export const CLABE = CLABES[0];
/** 18 digits (format-valid) with a wrong check digit: passes submit, fails the fast-check. */
export const BAD_CHECK_DIGIT_CLABE = "002010077777777772";
export const MX_PHONE = sandboxTestPhones.MX[0];

/** Polling budget for asynchronous steps (screening 1 s, fast-check 1.5 s in CI defaults). */
export const WAIT_MS = 15_000;

// ---------------------------------------------------------------------------------------------
// Assertions

/** Asserts status, error code and the envelope shape of decisions 8; returns the error. */
export function assertError(res: CallResult, status: number, code: string) {
  assert.equal(res.status, status, `expected ${status} ${code}, got ${res.status}: ${res.text}`);
  const error = errorOf(res);
  assert.equal(error.code, code, res.text);
  assert.deepEqual(Object.keys(error).sort(), ["code", "details", "hint", "message", "remediation"], res.text);
  return error;
}

/** Asserts a 400 whose summary code is `code` and whose issues are exactly `expected`. */
export function assertIssues(res: CallResult, code: string, expected: { field: string; code: string }[]) {
  const error = assertError(res, 400, code);
  const issues: { field: string; code: string }[] = error.details?.issues ?? [];
  const got = [...new Set(issues.map((i) => `${i.field} ${i.code}`))].sort();
  assert.deepEqual(got, expected.map((i) => `${i.field} ${i.code}`).sort(), res.text);
  return error;
}

export function assertIssue(res: CallResult, field: string, code: string) {
  return assertIssues(res, code, [{ field, code }]);
}

/** |a - b| <= toleranceMs, both ISO timestamps or Dates. */
export function assertNear(actual: string | Date | null | undefined, expected: Date | number, toleranceMs: number, what = "timestamp") {
  assert.ok(actual, `${what} missing`);
  const a = new Date(actual).getTime();
  const e = typeof expected === "number" ? expected : expected.getTime();
  assert.ok(Math.abs(a - e) <= toleranceMs, `${what} ${new Date(a).toISOString()} not within ${toleranceMs} ms of ${new Date(e).toISOString()}`);
}

/** Runs `fn` between two reads of the server clock: any time the server stamped lies in [before, after]. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ result: T; before: number; after: number }> {
  const before = (await serverNow()).getTime();
  const result = await fn();
  const after = (await serverNow()).getTime();
  return { result, before, after };
}

/** before + offsetMs <= actual <= after + offsetMs. */
export function assertWithin(actual: string | null | undefined, before: number, after: number, offsetMs: number, what: string) {
  assert.ok(actual, `${what} missing`);
  const a = Date.parse(actual);
  assert.ok(
    a >= before + offsetMs && a <= after + offsetMs,
    `${what} ${actual} not within [${new Date(before + offsetMs).toISOString()}, ${new Date(after + offsetMs).toISOString()}]`,
  );
}

/** Fails if `secret` appears anywhere in the raw response text. */
export function assertNotLeaked(res: CallResult, secret: string, where: string) {
  assert.ok(!res.text.includes(secret), `${where} leaks the full identifier: ${res.text}`);
}

// ---------------------------------------------------------------------------------------------
// Clock

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

/** Server time in whole seconds, for iat claims. */
async function serverIat(): Promise<number> {
  return Math.floor((await serverNow()).getTime() / 1000);
}

// ---------------------------------------------------------------------------------------------
// Customers

export interface Customer {
  identifier: string;
  password: string;
  token: string;
  subscriptionId: string;
}

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** A random Latin surname far from every sandbox watch-list entry. */
export function uniqueSurname(prefix = "Tester"): string {
  let s = "";
  for (let i = 0; i < 10; i++) s += LETTERS[randomInt(LETTERS.length)];
  return `${prefix}${s}`;
}

export function usaProfile(overrides: Record<string, unknown> = {}) {
  return {
    firstName: "Ana",
    lastName: uniqueSurname(),
    dateOfBirth: "1988-03-14",
    nationality: "USA",
    residenceCountry: "USA",
    residenceAddress: { addressLine1: "100 Congress Ave", city: "Austin", region: "TX", postalCode: "78701", country: "USA" },
    ...overrides,
  };
}

async function awaitCustomerStatus(c: Customer, status: string): Promise<void> {
  let last: CallResult | undefined;
  await eventually(
    async () => {
      last = await call("GET", "/v1/core/profile", { token: c.token });
      return last.status === 200 && last.body.status === status;
    },
    WAIT_MS,
    `customer ${status}`,
  ).catch((err: Error) => {
    throw new Error(`${err.message}; last read: ${last?.text}`);
  });
}

/** A customer with a USA profile, KYC approved, in `status` (VALID, or MONITORED for a watch-list close match). */
export async function onboardedCustomer(profile: Record<string, unknown> = {}, status: "VALID" | "MONITORED" = "VALID"): Promise<Customer> {
  const reg = await registerCustomer();
  const c: Customer = { identifier: reg.identifier, password: reg.password, token: reg.tokens.accessToken, subscriptionId: reg.tokens.subscriptionId };
  const prof = await call("POST", "/v1/core/profile", { token: c.token, body: usaProfile(profile) });
  assert.equal(prof.status, 200, prof.text);
  const session = await call("POST", "/v1/core/kyc-sessions", { token: c.token });
  assert.equal(session.status, 200, session.text);
  const done = await call("POST", `/v1/sandbox/kyc-sessions/${session.body.kycSessionId}/complete`, { token: c.token, body: { outcome: "APPROVED" } });
  assert.equal(done.status, 200, done.text);
  await awaitCustomerStatus(c, status);
  return c;
}

export const validCustomer = () => onboardedCustomer();

/** MONITORED: a close match of the sandbox watch list ("Olga Watchlistov"), KYC approved. */
export const monitoredCustomer = () => onboardedCustomer({ firstName: "Olga", lastName: "Watchlistov" }, "MONITORED");

/** A fresh access token (after the clock moved past the old one's hour); updates `c` in place. */
export async function relogin(c: Customer): Promise<Customer> {
  const res = await loginCustomer(c.identifier, c.password);
  assert.equal(res.status, 200, res.text);
  c.token = res.body.accessToken;
  return c;
}

// ---------------------------------------------------------------------------------------------
// Beneficiaries

export async function readBeneficiary(c: Customer, id: string) {
  return call("GET", `/v1/core/beneficiaries/${encodeURIComponent(id)}`, { token: c.token });
}

/** A VALID MEX beneficiary (created, screened clean). Returns its id. */
export async function validBeneficiary(c: Customer): Promise<string> {
  const res = await call("POST", "/v1/core/beneficiaries", {
    token: c.token,
    body: { firstName: "Lucia", lastName: uniqueSurname("Hernandez"), countryOfResidence: "MEX", relationshipToCustomer: "FAMILY" },
  });
  assert.equal(res.status, 202, res.text);
  const id = res.body.beneficiaryId as string;
  let last: CallResult | undefined;
  await eventually(
    async () => {
      last = await readBeneficiary(c, id);
      return last.status === 200 && last.body.state !== "PENDING";
    },
    WAIT_MS,
    `screening of ${id}`,
  );
  assert.equal(last!.body.state, "VALID", last!.text);
  return id;
}

// ---------------------------------------------------------------------------------------------
// Quotes and transfers

export interface AcceptOptions {
  originAmount?: string;
  /** Lower-case corridor payout method (decisions 6); default the corridor's first (bank_account). */
  payoutMethod?: string;
}

/** Quote → disclosure → accept (201): a transfer in registered. */
export async function acceptTransfer(
  c: Customer,
  beneficiaryId: string,
  opts: AcceptOptions = {},
): Promise<{ transferId: string; quoteId: string; accept: CallResult }> {
  const quote = await call("POST", "/v1/core/quotes", {
    token: c.token,
    body: {
      originAmount: opts.originAmount ?? "100.000000",
      originCurrency: "USD",
      destinationCurrency: "MXN",
      beneficiaryId,
      ...(opts.payoutMethod ? { payoutMethod: opts.payoutMethod } : {}),
    },
  });
  assert.equal(quote.status, 200, quote.text);
  const disclosure = await call("GET", `/v1/core/quotes/${quote.body.quoteId}/disclosure`, { token: c.token });
  assert.equal(disclosure.status, 200, disclosure.text);
  const accept = await call("POST", `/v1/core/quotes/${quote.body.quoteId}/accept`, {
    token: c.token,
    body: { disclosureToken: disclosure.body.disclosureToken, purposeOfTransfer: "FAMILY_SUPPORT" },
  });
  assert.equal(accept.status, 201, accept.text);
  assert.equal(accept.body.transferStatus, "registered");
  return { transferId: accept.body.transferId, quoteId: quote.body.quoteId, accept };
}

export function submitBody(
  beneficiaryId: string,
  payoutMethod: Record<string, unknown> = { methodType: "BANK_TRANSFER", destinationIdentifier: CLABE },
  extra: Record<string, unknown> = {},
) {
  return { beneficiaryId, payoutMethod, purposeOfTransfer: "FAMILY_SUPPORT", ...extra };
}

export function submit(c: Customer, transferId: string, body: unknown, opts: { idempotencyKey?: string } = {}) {
  return call("POST", `/v1/core/transfers/${encodeURIComponent(transferId)}/submit`, { token: c.token, body, ...opts });
}

export function readTransfer(c: Customer, transferId: string) {
  return call("GET", `/v1/core/transfers/${encodeURIComponent(transferId)}`, { token: c.token });
}

export function listTransfers(c: Customer, query = "") {
  return call("GET", `/v1/core/transfers${query ? `?${query}` : ""}`, { token: c.token });
}

export function cancel(c: Customer, transferId: string, opts: { idempotencyKey?: string; body?: unknown } = {}) {
  return call("POST", `/v1/core/transfers/${encodeURIComponent(transferId)}/cancel`, {
    token: c.token,
    body: opts.body ?? { cancellationReason: "CUSTOMER_REQUEST" },
    idempotencyKey: opts.idempotencyKey ?? randomUUID(),
  });
}

/** Polls GET until the transfer satisfies `done` (default: state is `state`); returns the detail. */
export async function awaitTransfer(c: Customer, transferId: string, state: string, done?: (t: any) => boolean, timeoutMs = WAIT_MS): Promise<any> {
  let last: CallResult | undefined;
  return eventually(
    async () => {
      last = await readTransfer(c, transferId);
      assert.equal(last.status, 200, last.text);
      return (done ? done(last.body) : last.body.transferStatus === state) ? last.body : undefined;
    },
    timeoutMs,
    `transfer ${transferId} ${state}`,
  ).catch((err: Error) => {
    throw new Error(`${err.message}; last read: ${last?.text}`);
  });
}

/** Waits for the fast-check to leave registered; returns the detail. */
export async function awaitFastCheck(c: Customer, transferId: string): Promise<any> {
  return awaitTransfer(c, transferId, "(not registered)", (t) => t.transferStatus !== "registered");
}

export interface Scenario {
  c: Customer;
  beneficiaryId: string;
  transferId: string;
  quoteId: string;
}

export interface ScenarioOptions extends AcceptOptions {
  /** A new customer (and beneficiary) instead of the file's shared one: for lists, events, clock-sensitive checks. */
  fresh?: boolean;
  /** The shared customer, but a new beneficiary (for checks on the beneficiary's payout methods). */
  freshBeneficiary?: boolean;
}

interface Shared {
  c: Customer;
  beneficiaryId: string;
  device?: Device;
  /** Server time of the token's issue. */
  tokenAt: number;
}

let shared: Promise<Shared> | undefined;

/**
 * One VALID customer with one VALID beneficiary per test process (onboarding costs seconds), given
 * a new access token when the shared clock has moved past most of the old one's hour.
 */
async function sharedParty(): Promise<Shared> {
  shared ??= (async () => {
    const c = await validCustomer();
    const beneficiaryId = await validBeneficiary(c);
    return { c, beneficiaryId, tokenAt: (await serverNow()).getTime() };
  })();
  const party = await shared;
  const now = (await serverNow()).getTime();
  if (now - party.tokenAt > 40 * 60_000) {
    await relogin(party.c);
    party.tokenAt = now;
  }
  return party;
}

/** A registered (accepted, not submitted) transfer of the shared customer, or of a fresh one. */
export async function registeredScenario(opts: ScenarioOptions = {}): Promise<Scenario> {
  let c: Customer;
  let beneficiaryId: string;
  if (opts.fresh) {
    c = await validCustomer();
    beneficiaryId = await validBeneficiary(c);
  } else {
    const party = await sharedParty();
    c = party.c;
    beneficiaryId = opts.freshBeneficiary ? await validBeneficiary(c) : party.beneficiaryId;
  }
  const { transferId, quoteId } = await acceptTransfer(c, beneficiaryId, opts);
  return { c, beneficiaryId, transferId, quoteId };
}

/** The shared customer's device (registered once), or a new device for another customer. */
async function deviceFor(c: Customer): Promise<Device> {
  const party = shared ? await shared : undefined;
  if (party?.c !== c) return registerDevice(c);
  party.device ??= await registerDevice(c);
  return party.device;
}

/** Submits with a valid CLABE (202) and waits for validated. */
export async function submitAndValidate(s: Scenario, destinationIdentifier: string = CLABE): Promise<any> {
  const res = await submit(s.c, s.transferId, submitBody(s.beneficiaryId, { methodType: "BANK_TRANSFER", destinationIdentifier }));
  assert.equal(res.status, 202, res.text);
  const t = await awaitFastCheck(s.c, s.transferId);
  assert.equal(t.transferStatus, "validated", JSON.stringify(t));
  return t;
}

export async function validatedScenario(opts: ScenarioOptions = {}): Promise<Scenario> {
  const s = await registeredScenario(opts);
  await submitAndValidate(s);
  return s;
}

// ---------------------------------------------------------------------------------------------
// Device and confirm (the approach of scripts/demo.ts, with iat from the server clock)

export interface Device {
  privateKey: CryptoKey;
  deviceId: string;
  kid: string;
}

export async function registerDevice(c: Customer): Promise<Device> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { modulusLength: 2048, extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const start = await call("POST", "/v1/auth/device-registration/start", { token: c.token, body: {} });
  assert.equal(start.status, 200, start.text);
  const proof = await new CompactSign(
    new TextEncoder().encode(
      JSON.stringify({ device_registration_id: start.body.deviceRegistrationId, challenge: start.body.challenge, iat: await serverIat() }),
    ),
  )
    .setProtectedHeader({ alg: "RS256", typ: "JWT" })
    .sign(privateKey);
  const done = await call("POST", "/v1/auth/device-registration/complete", {
    token: c.token,
    body: { deviceRegistrationId: start.body.deviceRegistrationId, publicKey: publicJwk, deviceName: "Test phone", proof },
  });
  assert.equal(done.status, 201, done.text);
  return { privateKey, deviceId: done.body.deviceId, kid: done.body.kid };
}

/** A device assertion over the transfer detail (which must carry a fresh confirmationChallenge). */
export async function deviceAssertion(
  device: Device,
  t: { transferId: string; originAmount: string; originCurrency: string; beneficiaryId: string; confirmationChallenge: string },
) {
  const claims = {
    transfer_id: t.transferId,
    amount: t.originAmount,
    currency: t.originCurrency,
    beneficiary_id: t.beneficiaryId,
    device_id: device.deviceId,
    nonce: randomUUID(),
    challenge: t.confirmationChallenge,
    iat: await serverIat(),
  };
  return new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
    .setProtectedHeader({ alg: "RS256", kid: device.kid, typ: "JWT" })
    .sign(device.privateKey);
}

/** GET (fresh challenge) → confirm (200); returns the confirm body (fundingSession with its URL). */
export async function confirm(c: Customer, device: Device, transferId: string): Promise<any> {
  const read = await readTransfer(c, transferId);
  assert.equal(read.status, 200, read.text);
  assert.equal(read.body.transferStatus, "validated", read.text);
  const res = await call("POST", `/v1/core/transfers/${encodeURIComponent(transferId)}/confirm`, {
    token: c.token,
    body: { deviceAssertion: await deviceAssertion(device, read.body) },
  });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

export function completeFunding(c: Customer, fundingSessionId: string, outcome: "SUCCEEDED" | "FAILED" = "SUCCEEDED") {
  return call("POST", `/v1/sandbox/funding-sessions/${encodeURIComponent(fundingSessionId)}/complete`, { token: c.token, body: { outcome } });
}

/** A transfer in funding: validated, a registered device, confirmed. */
export async function fundingScenario(opts: ScenarioOptions = {}): Promise<Scenario & { device: Device; confirmed: any }> {
  const s = await validatedScenario(opts);
  const device = await deviceFor(s.c);
  const confirmed = await confirm(s.c, device, s.transferId);
  assert.equal(confirmed.transferStatus, "funding");
  return { ...s, device, confirmed };
}

/** A transfer in funded. */
export async function fundedScenario(opts: ScenarioOptions = {}): Promise<Scenario & { device: Device; confirmed: any }> {
  const s = await fundingScenario(opts);
  const done = await completeFunding(s.c, s.confirmed.fundingSession.fundingSessionId);
  assert.equal(done.status, 200, done.text);
  assert.equal(done.body.transferStatus, "funded", done.text);
  return s;
}

// ---------------------------------------------------------------------------------------------
// Sandbox controls (decisions 7)

export function advance(c: Customer, transferId: string, to: string) {
  return call("POST", `/v1/sandbox/transfers/${encodeURIComponent(transferId)}/advance`, { token: c.token, body: { to } });
}

export async function advanceTo(c: Customer, transferId: string, ...steps: string[]) {
  for (const to of steps) {
    const res = await advance(c, transferId, to);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.transferStatus, to, res.text);
  }
}

export function networkCancellation(c: Customer, transferId: string, outcome: string) {
  return call("POST", `/v1/sandbox/transfers/${encodeURIComponent(transferId)}/network-cancellation`, { token: c.token, body: { outcome } });
}

export function hold(c: Customer, transferId: string) {
  return call("POST", `/v1/sandbox/transfers/${encodeURIComponent(transferId)}/compliance-hold`, { token: c.token, body: {} });
}

export function release(c: Customer, transferId: string, resolution: "RESTORE" | "REJECT") {
  return call("POST", `/v1/sandbox/transfers/${encodeURIComponent(transferId)}/compliance-release`, { token: c.token, body: { resolution } });
}

export function review(c: Customer, transferId: string, decision: "APPROVE" | "REJECT") {
  return call("POST", `/v1/sandbox/transfers/${encodeURIComponent(transferId)}/review`, { token: c.token, body: { decision } });
}

export interface PartnerSettings {
  partnerId: string;
  pricingMode: string;
  webhookUrl: string | null;
  webhookSecret: string | null;
}

/** PUT /v1/sandbox/partner (an empty body reads the current settings). */
export async function putPartner(body: Record<string, unknown>): Promise<PartnerSettings> {
  const res = await call("PUT", "/v1/sandbox/partner", { body });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

/** reasonCodes of a detail's stateHistory, in order. */
export const reasons = (t: any): string[] => t.stateHistory.map((h: { reasonCode: string }) => h.reasonCode);
export const states = (t: any): string[] => t.stateHistory.map((h: { state: string }) => h.state);
