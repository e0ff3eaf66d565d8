/** Shared helpers of the customer (profile, KYC, screening, events) integration tests (not a test file). */
import assert from "node:assert/strict";
import { randomInt } from "node:crypto";
import { call, errorOf, eventually, loginCustomer, registerCustomer, type CallResult } from "../support/client";

/** Asserts status and error code and the envelope shape; returns the error. */
export function assertError(res: CallResult, status: number, code: string) {
  assert.equal(res.status, status, `expected ${status} ${code}, got ${res.status}: ${res.text}`);
  const error = errorOf(res);
  assert.equal(error.code, code, res.text);
  assert.deepEqual(Object.keys(error).sort(), ["code", "details", "hint", "message", "remediation"], res.text);
  return error;
}

/** Asserts a validation error whose issues are exactly `expected` (field and code, in any order). */
export function assertIssues(res: CallResult, code: string, expected: { field: string; code: string }[]) {
  const error = assertError(res, 400, code);
  const issues: { field: string; code: string }[] = error.details?.issues ?? [];
  const got = issues.map((i) => `${i.field} ${i.code}`).sort();
  assert.deepEqual(got, expected.map((i) => `${i.field} ${i.code}`).sort(), res.text);
  return error;
}

/** One validation issue: the summary code equals the issue code. */
export function assertIssue(res: CallResult, field: string, code: string) {
  return assertIssues(res, code, [{ field, code }]);
}

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** A random Latin surname far from every sandbox watch-list entry (so identity and screening stay clean). */
export function uniqueSurname(prefix = "Tester"): string {
  let s = "";
  for (let i = 0; i < 10; i++) s += LETTERS[randomInt(LETTERS.length)];
  return `${prefix}${s}`;
}

export interface ProfileBody {
  firstName: string;
  lastName: string;
  middleNames?: string[];
  dateOfBirth: string;
  nationality: string;
  residenceCountry: string;
  residenceAddress: Record<string, unknown>;
  [k: string]: unknown;
}

/** A valid US profile with a unique name. */
export function validProfile(overrides: Partial<ProfileBody> = {}): ProfileBody {
  return {
    firstName: "Ana",
    lastName: uniqueSurname(),
    dateOfBirth: "1990-04-12",
    nationality: "USA",
    residenceCountry: "USA",
    residenceAddress: { addressLine1: "1 Main Street", city: "New York", region: "NY", postalCode: "10001", country: "USA" },
    ...overrides,
  };
}

/** A valid British profile (no region needed). */
export function gbrProfile(overrides: Partial<ProfileBody> = {}): ProfileBody {
  return validProfile({
    nationality: "GBR",
    residenceCountry: "GBR",
    residenceAddress: { addressLine1: "10 Downing Street", city: "London", postalCode: "SW1A 2AA", country: "GBR" },
    ...overrides,
  });
}

export interface Customer {
  identifier: string;
  token: string;
  subscriptionId: string;
}

export async function newCustomer(): Promise<Customer> {
  const c = await registerCustomer();
  return { identifier: c.identifier, token: c.tokens.accessToken, subscriptionId: c.tokens.subscriptionId };
}

/** A fresh access token (after the clock moved past the old one's hour). */
export async function relogin<C extends Customer>(c: C): Promise<C> {
  const res = await loginCustomer(c.identifier);
  assert.equal(res.status, 200, res.text);
  return { ...c, token: res.body.accessToken };
}

export const submitProfile = (c: Customer, body: unknown, opts: { idempotencyKey?: string | null; headers?: Record<string, string> } = {}) =>
  call("POST", "/v1/core/profile", { token: c.token, body, ...opts });
export const readProfile = (c: Customer) => call("GET", "/v1/core/profile", { token: c.token });
export const createKyc = (c: Customer, opts: { idempotencyKey?: string | null; headers?: Record<string, string> } = {}) =>
  call("POST", "/v1/core/kyc-sessions", { token: c.token, ...opts });
export const readKyc = (c: Customer, id: string) => call("GET", `/v1/core/kyc-sessions/${encodeURIComponent(id)}`, { token: c.token });
export const completeKyc = (c: Customer, id: string, outcome: "APPROVED" | "REJECTED" | "REMEDIATION_REQUIRED") =>
  call("POST", `/v1/sandbox/kyc-sessions/${encodeURIComponent(id)}/complete`, { token: c.token, body: { outcome } });

/** A registered customer with a submitted profile. */
export async function customerWithProfile(profile: ProfileBody = validProfile()): Promise<Customer & { profile: ProfileBody }> {
  const c = await newCustomer();
  const res = await submitProfile(c, profile);
  assert.equal(res.status, 200, res.text);
  return { ...c, profile };
}

/** Opens a KYC session (200) and returns its create response. */
export async function openKyc(c: Customer, headers: Record<string, string> = {}) {
  const res = await createKyc(c, { headers });
  assert.equal(res.status, 200, res.text);
  return res.body as {
    kycSessionId: string;
    purpose: string;
    sessionState: string;
    webviewUrl: string;
    expiresAt: string;
    sessionExpiresAt: string;
    closureCallback: { postMessage: { type: string; targetOrigin: string | null }; deepLink: string | null };
  };
}

/** Runs a customer through KYC with the given outcome; returns the session id. */
export async function decideKyc(c: Customer, outcome: "APPROVED" | "REJECTED" | "REMEDIATION_REQUIRED"): Promise<string> {
  const session = await openKyc(c);
  const done = await completeKyc(c, session.kycSessionId, outcome);
  assert.equal(done.status, 200, done.text);
  return session.kycSessionId;
}

/** The server's clock (it only moves forward; advancing by 0 reads it). */
export async function serverNow(): Promise<Date> {
  const res = await call("POST", "/v1/sandbox/clock", { body: { advanceSeconds: 0 } });
  assert.equal(res.status, 200, res.text);
  return new Date(res.body.now);
}

/** Polls the profile until `status` (and kycStatus when given); returns the profile read. */
export async function awaitStatus(c: Customer, status: string, kycStatus?: string, timeoutMs = 10_000) {
  let last: CallResult | undefined;
  try {
    return await eventually(
      async () => {
        last = await readProfile(c);
        return last.status === 200 && last.body.status === status && (!kycStatus || last.body.kycStatus === kycStatus) ? last.body : undefined;
      },
      timeoutMs,
      `customer ${status}${kycStatus ? `/${kycStatus}` : ""}`,
    );
  } catch (err) {
    throw new Error(`${(err as Error).message}; last read: ${last?.text}`);
  }
}

/**
 * Screening barrier: screening jobs run in due order, so once a sanctioned customer submitted
 * after `c` is BLOCKED, `c`'s own screening (due earlier) has run too.
 */
export async function awaitScreeningOf(_c: Customer): Promise<void> {
  const sentinel = await customerWithProfile(validProfile({ firstName: "Viktor", lastName: "Sanctionov", dateOfBirth: "1970-01-01" }));
  await awaitStatus(sentinel, "BLOCKED");
}

/** GET a webview URL as a browser would. */
export async function openWebview(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers: { accept: "text/html", ...headers } });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

export const EXPIRED_PAGE = 'data-testid="webview-expired"';
