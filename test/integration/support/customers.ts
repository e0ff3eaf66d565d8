/**
 * Customer factories of the integration tests: registered customers, profiles, KYC through the
 * sandbox, and customers in a given status. Everything goes through the public HTTP API.
 */
import assert from "node:assert/strict";
import { randomInt } from "node:crypto";
import { onboardCustomer } from "../../../scripts/lib/onboarding";
import { call, eventually, loginCustomer, PASSWORD, registerCustomer, uniqueEmail, type CallResult } from "./client";

/** Polling budget for asynchronous steps (screening 1 s, KYC decision jobs) on a busy machine. */
export const POLL_MS = 30_000;

export interface Customer {
  identifier: string;
  password: string;
  token: string;
  subscriptionId: string;
}

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** A random Latin surname far from every sandbox watch-list entry, so screening stays clean and identity resolution never links two test customers. */
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

/** A valid profile resident in the USA (corridor origin US), with a unique name. */
export function usaProfile(overrides: Partial<ProfileBody> = {}): ProfileBody {
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

/** A valid British profile (no region needed). */
export function gbrProfile(overrides: Partial<ProfileBody> = {}): ProfileBody {
  return usaProfile({
    nationality: "GBR",
    residenceCountry: "GBR",
    residenceAddress: { addressLine1: "10 Downing Street", city: "London", postalCode: "SW1A 2AA", country: "GBR" },
    ...overrides,
  });
}

/** A registered customer (no profile yet). */
export async function newCustomer(): Promise<Customer> {
  const c = await registerCustomer();
  return { identifier: c.identifier, password: c.password, token: c.tokens.accessToken, subscriptionId: c.tokens.subscriptionId };
}

/** A fresh access token (after the clock moved past the old one's hour); updates `c` in place and returns it. */
export async function relogin<C extends Customer>(c: C): Promise<C> {
  const res = await loginCustomer(c.identifier, c.password);
  assert.equal(res.status, 200, res.text);
  c.token = res.body.accessToken;
  return c;
}

type RequestOptions = { idempotencyKey?: string | null; headers?: Record<string, string> };

export const submitProfile = (c: { token: string }, body: unknown, opts: RequestOptions = {}) =>
  call("POST", "/v1/core/profile", { token: c.token, body, ...opts });
export const readProfile = (c: { token: string }) => call("GET", "/v1/core/profile", { token: c.token });
export const createKyc = (c: { token: string }, opts: RequestOptions = {}) => call("POST", "/v1/core/kyc-sessions", { token: c.token, ...opts });
export const readKyc = (c: { token: string }, id: string) => call("GET", `/v1/core/kyc-sessions/${encodeURIComponent(id)}`, { token: c.token });
export type KycOutcome = "APPROVED" | "REJECTED" | "REMEDIATION_REQUIRED";
export const completeKyc = (c: { token: string }, id: string, outcome: KycOutcome) =>
  call("POST", `/v1/sandbox/kyc-sessions/${encodeURIComponent(id)}/complete`, { token: c.token, body: { outcome } });

/** A registered customer with a submitted profile (status PENDING, KYC not done). */
export async function customerWithProfile(profile: ProfileBody = usaProfile()): Promise<Customer & { profile: ProfileBody }> {
  const c = await newCustomer();
  const res = await submitProfile(c, profile);
  assert.equal(res.status, 200, res.text);
  return { ...c, profile };
}

/** A PENDING customer with a USA profile (overrides applied). */
export const pendingCustomer = (overrides: Partial<ProfileBody> = {}) => customerWithProfile(usaProfile(overrides));

/** Opens a KYC session (200) and returns its create response. */
export async function openKyc(c: { token: string }, headers: Record<string, string> = {}) {
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

/** Runs a customer through KYC with the given sandbox outcome; returns the session id. */
export async function decideKyc(c: { token: string }, outcome: KycOutcome): Promise<string> {
  const session = await openKyc(c);
  const done = await completeKyc(c, session.kycSessionId, outcome);
  assert.equal(done.status, 200, done.text);
  return session.kycSessionId;
}

/** Polls the profile until `status` (and kycStatus when given); returns the profile read. */
export async function awaitStatus(c: { token: string }, status: string, kycStatus?: string, timeoutMs = POLL_MS) {
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

/** A customer with a USA profile (overrides applied; a full profile replaces it), KYC approved, in `status`. */
export async function onboardedCustomer(profile: Partial<ProfileBody> = {}, status: "VALID" | "MONITORED" = "VALID"): Promise<Customer> {
  return onboardCustomer(call, { identifier: uniqueEmail(), password: PASSWORD, profile: usaProfile(profile), status, timeoutMs: POLL_MS });
}

/** An onboarded customer stepped up to tier 2 (an ENHANCED KYC session approved), for transfers above tier 1's 2,999 USD a day. */
export async function tierTwoCustomer(): Promise<Customer> {
  const c = await onboardedCustomer();
  const session = await openKyc(c);
  assert.equal(session.purpose, "ENHANCED");
  const done = await completeKyc(c, session.kycSessionId, "APPROVED");
  assert.equal(done.status, 200, done.text);
  return c;
}

/** A VALID customer: USA profile (optional overrides, e.g. preferredLanguage), KYC approved. */
export const validCustomer = (profile: Partial<ProfileBody> = {}) => onboardedCustomer(profile);

/** MONITORED: a close match of the sandbox watch list ("Olga Watchlistov"), KYC approved. */
export const monitoredCustomer = () => onboardedCustomer({ firstName: "Olga", lastName: "Watchlistov" }, "MONITORED");

/** A RESTRICTED customer (KYC REMEDIATION_REQUIRED through the sandbox). */
export async function restrictedCustomer(): Promise<Customer> {
  const c = await pendingCustomer();
  await decideKyc(c, "REMEDIATION_REQUIRED");
  await awaitStatus(c, "RESTRICTED");
  return c;
}

/** A BLOCKED customer (KYC REJECTED through the sandbox). */
export async function blockedCustomer(): Promise<Customer> {
  const c = await pendingCustomer();
  await decideKyc(c, "REJECTED");
  await awaitStatus(c, "BLOCKED");
  return c;
}
