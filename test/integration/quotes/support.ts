/**
 * Shared setup of the beneficiary and quote integration tests (not a test file): customers in a
 * given status (profile residence USA), screened MEX beneficiaries, quotes, disclosures, accepts,
 * partner settings. Every helper goes through the public HTTP API (test/integration/support/client).
 */
import assert from "node:assert/strict";
import { randomInt, randomUUID } from "node:crypto";
import { call, errorOf, eventually, registerCustomer, type CallResult } from "../support/client";

export { call, errorOf, eventually, type CallResult } from "../support/client";

// ---------------------------------------------------------------------------------------------
// Assertions

/** Asserts status, error code and the envelope shape of decisions 8; returns the error. */
export function assertError(res: CallResult, status: number, code: string) {
  assert.equal(res.status, status, `expected ${status} ${code}, got ${res.status}: ${res.text}`);
  const error = errorOf(res);
  assert.equal(error.code, code, res.text);
  assert.deepEqual(Object.keys(error).sort(), ["code", "details", "hint", "message", "remediation"], res.text);
  assert.ok(res.status < 500, res.text);
  return error;
}

/** Asserts a 400 validation error whose issues are exactly `expected` (field and code, any order). */
export function assertIssues(res: CallResult, code: string, expected: { field: string; code: string }[]) {
  const error = assertError(res, 400, code);
  const issues: { field: string; code: string }[] = error.details?.issues ?? [];
  const got = [...new Set(issues.map((i) => `${i.field} ${i.code}`))].sort();
  assert.deepEqual(got, expected.map((i) => `${i.field} ${i.code}`).sort(), res.text);
  return error;
}

/** One validation issue whose code is also the summary code. */
export function assertIssue(res: CallResult, field: string, code: string) {
  return assertIssues(res, code, [{ field, code }]);
}

/** Walks a JSON value and fails if any object has the key (screening evidence must never leak). */
export function assertNoKeyDeep(value: unknown, key: string, where = "response"): void {
  const walk = (v: unknown, path: string) => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
    else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        assert.notEqual(k, key, `${where} carries ${path}.${k}`);
        walk(x, `${path}.${k}`);
      }
    }
  };
  walk(value, "$");
}

// ---------------------------------------------------------------------------------------------
// Customers

export interface Customer {
  identifier: string;
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

/** A valid profile resident in the USA (corridor origin US), unique name. */
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

export async function newCustomer(): Promise<Customer> {
  const c = await registerCustomer();
  return { identifier: c.identifier, token: c.tokens.accessToken, subscriptionId: c.tokens.subscriptionId };
}

export async function readProfile(c: Customer) {
  return call("GET", "/v1/core/profile", { token: c.token });
}

async function awaitCustomerStatus(c: Customer, status: string): Promise<void> {
  let last: CallResult | undefined;
  await eventually(
    async () => {
      last = await readProfile(c);
      return last.status === 200 && last.body.status === status;
    },
    10_000,
    `customer ${status}`,
  ).catch((err: Error) => {
    throw new Error(`${err.message}; last read: ${last?.text}`);
  });
}

/** A registered customer with a submitted USA profile (status PENDING, KYC not done). */
export async function pendingCustomer(profile: Record<string, unknown> = {}): Promise<Customer> {
  const c = await newCustomer();
  const res = await call("POST", "/v1/core/profile", { token: c.token, body: usaProfile(profile) });
  assert.equal(res.status, 200, res.text);
  return c;
}

/** Runs KYC with the given sandbox outcome. */
export async function decideKyc(c: Customer, outcome: "APPROVED" | "REJECTED" | "REMEDIATION_REQUIRED"): Promise<void> {
  const session = await call("POST", "/v1/core/kyc-sessions", { token: c.token });
  assert.equal(session.status, 200, session.text);
  const done = await call("POST", `/v1/sandbox/kyc-sessions/${session.body.kycSessionId}/complete`, { token: c.token, body: { outcome } });
  assert.equal(done.status, 200, done.text);
}

/** A VALID customer: USA profile (optional profile overrides, e.g. preferredLanguage), KYC approved. */
export async function validCustomer(profile: Record<string, unknown> = {}): Promise<Customer> {
  const c = await pendingCustomer(profile);
  await decideKyc(c, "APPROVED");
  await awaitCustomerStatus(c, "VALID");
  return c;
}

/** A RESTRICTED customer (KYC REMEDIATION_REQUIRED through the sandbox). */
export async function restrictedCustomer(): Promise<Customer> {
  const c = await pendingCustomer();
  await decideKyc(c, "REMEDIATION_REQUIRED");
  await awaitCustomerStatus(c, "RESTRICTED");
  return c;
}

/** A BLOCKED customer (KYC REJECTED through the sandbox). */
export async function blockedCustomer(): Promise<Customer> {
  const c = await pendingCustomer();
  await decideKyc(c, "REJECTED");
  await awaitCustomerStatus(c, "BLOCKED");
  return c;
}

// ---------------------------------------------------------------------------------------------
// Beneficiaries

export interface BeneficiaryBody {
  firstName?: string;
  lastName?: string;
  dateOfBirth?: string;
  nationality?: string;
  countryOfResidence?: string;
  relationshipToCustomer?: string;
  [k: string]: unknown;
}

/** A MEX beneficiary body with a unique, clean name. */
export function mexBeneficiary(overrides: BeneficiaryBody = {}): BeneficiaryBody {
  return { firstName: "Lucia", lastName: uniqueSurname("Hernandez"), countryOfResidence: "MEX", relationshipToCustomer: "FAMILY", ...overrides };
}

export function createBeneficiary(c: Customer, body: unknown = mexBeneficiary(), opts: { idempotencyKey?: string } = {}) {
  return call("POST", "/v1/core/beneficiaries", { token: c.token, body, ...opts });
}

export function readBeneficiary(c: Customer, id: string) {
  return call("GET", `/v1/core/beneficiaries/${encodeURIComponent(id)}`, { token: c.token });
}

export function listBeneficiaries(c: Customer, query = "") {
  return call("GET", `/v1/core/beneficiaries${query ? `?${query}` : ""}`, { token: c.token });
}

export function archiveBeneficiary(c: Customer, id: string, opts: { idempotencyKey?: string } = {}) {
  return call("POST", `/v1/core/beneficiaries/${encodeURIComponent(id)}/archive`, { token: c.token, ...opts });
}

export function forceScreening(c: Customer, id: string, outcome: "VALID" | "MONITORED" | "BLOCKED") {
  return call("POST", `/v1/sandbox/beneficiaries/${encodeURIComponent(id)}/screening`, { token: c.token, body: { outcome } });
}

/** Polls the beneficiary until screening has decided it (state no longer PENDING); returns the detail. */
export async function awaitScreened(c: Customer, id: string): Promise<any> {
  let last: CallResult | undefined;
  return eventually(
    async () => {
      last = await readBeneficiary(c, id);
      assert.equal(last.status, 200, last.text);
      return last.body.state !== "PENDING" ? last.body : undefined;
    },
    10_000,
    `screening of ${id}`,
  ).catch((err: Error) => {
    throw new Error(`${err.message}; last read: ${last?.text}`);
  });
}

/** Creates a beneficiary (202) and waits for its screening result. */
export async function screenedBeneficiary(c: Customer, body: BeneficiaryBody = mexBeneficiary()): Promise<any> {
  const res = await createBeneficiary(c, body);
  assert.equal(res.status, 202, res.text);
  return awaitScreened(c, res.body.beneficiaryId);
}

/** A VALID MEX beneficiary (screened clean by the sandbox watch list). */
export async function validBeneficiary(c: Customer, overrides: BeneficiaryBody = {}): Promise<any> {
  const b = await screenedBeneficiary(c, mexBeneficiary(overrides));
  assert.equal(b.state, "VALID", JSON.stringify(b));
  return b;
}

// ---------------------------------------------------------------------------------------------
// Quotes

export function quoteBody(beneficiaryId: string, overrides: Record<string, unknown> = {}) {
  return { originAmount: "100.000000", originCurrency: "USD", destinationCurrency: "MXN", beneficiaryId, ...overrides };
}

export function createQuote(c: Customer, body: unknown, opts: { idempotencyKey?: string } = {}) {
  return call("POST", "/v1/core/quotes", { token: c.token, body, ...opts });
}

export function readQuote(c: Customer, quoteId: string) {
  return call("GET", `/v1/core/quotes/${encodeURIComponent(quoteId)}`, { token: c.token });
}

export function readDisclosure(c: Customer, quoteId: string, headers: Record<string, string> = {}) {
  return call("GET", `/v1/core/quotes/${encodeURIComponent(quoteId)}/disclosure`, { token: c.token, headers });
}

export function acceptQuote(c: Customer, quoteId: string, disclosureToken: string, opts: { idempotencyKey?: string; purposeOfTransfer?: string } = {}) {
  return call("POST", `/v1/core/quotes/${encodeURIComponent(quoteId)}/accept`, {
    token: c.token,
    body: { disclosureToken, purposeOfTransfer: opts.purposeOfTransfer ?? "FAMILY_SUPPORT" },
    idempotencyKey: opts.idempotencyKey ?? randomUUID(),
  });
}

/** A service-priced quote (200). */
export async function serviceQuote(c: Customer, beneficiaryId: string, overrides: Record<string, unknown> = {}): Promise<any> {
  const res = await createQuote(c, quoteBody(beneficiaryId, overrides));
  assert.equal(res.status, 200, res.text);
  return res.body;
}

/** Reads the disclosure (200) and returns its token. */
export async function disclosureToken(c: Customer, quoteId: string): Promise<string> {
  const res = await readDisclosure(c, quoteId);
  assert.equal(res.status, 200, res.text);
  return res.body.disclosureToken;
}

/** Quote → disclosure → accept (201); returns the accept body. */
export async function acceptNew(c: Customer, beneficiaryId: string): Promise<{ quoteId: string; transferId: string; transferStatus: string }> {
  const quote = await serviceQuote(c, beneficiaryId);
  const res = await acceptQuote(c, quote.quoteId, await disclosureToken(c, quote.quoteId));
  assert.equal(res.status, 201, res.text);
  return res.body;
}

// ---------------------------------------------------------------------------------------------
// Sandbox: clock and partner

/** The server's clock (it only moves forward; advancing by 0 reads it). */
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

export interface PartnerSettings {
  partnerId: string;
  pricingMode: string;
  jwks: { keys: Record<string, unknown>[] };
  webhookUrl: string | null;
  webhookSecret: string | null;
}

/** PUT /v1/sandbox/partner (an empty body reads the current settings). */
export async function putPartner(body: Record<string, unknown>): Promise<PartnerSettings> {
  const res = await call("PUT", "/v1/sandbox/partner", { body });
  assert.equal(res.status, 200, res.text);
  return res.body;
}
