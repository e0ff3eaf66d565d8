/**
 * A customer onboarded through the public API in the sandbox: registration (the sandbox reads the
 * one-time code back), the profile, an approved KYC session and the customer's status read until
 * it settles; and a beneficiary screened VALID. The one way the demo (scripts/demo.ts), the
 * benchmarks (bench/lib/partner.ts), the integration tests (test/integration/support) and the
 * browser tests (e2e/support) do it: each passes its own HTTP call (the tests' checks every answer
 * against its contract).
 */
import { randomUUID } from "node:crypto";

/** One HTTP call as the partner makes it (subscription key set by the caller); its answer parsed. */
export type Call = (method: string, path: string, opts?: { token?: string; body?: unknown }) => Promise<{ status: number; body: any; text: string }>;

/** A Call over fetch for `baseUrl` with the partner's subscription key (an Idempotency-Key on Core API POSTs). */
export function httpCaller(baseUrl: string, key: string): Call {
  return async (method, path, opts = {}) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        accept: "application/json",
        "ocp-apim-subscription-key": key,
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        ...(opts.body === undefined ? {} : { "content-type": "application/json" }),
        ...(method === "POST" && path.startsWith("/v1/core") ? { "idempotency-key": randomUUID() } : {}),
      },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    return { status: res.status, body, text };
  };
}

export const DEFAULT_PASSWORD = "correct horse battery staple";

/** The demo's customer: Mexican, resident in Texas (corridor US → MX). */
export const SAMPLE_PROFILE = {
  firstName: "Ana",
  lastName: "García",
  dateOfBirth: "1988-03-14",
  nationality: "MEX",
  residenceCountry: "USA",
  residenceAddress: { addressLine1: "100 Congress Ave", city: "Austin", region: "TX", postalCode: "78701", country: "USA" },
};

/** The demo's beneficiary in Mexico, far from every sandbox watch-list entry. */
export const SAMPLE_BENEFICIARY = {
  firstName: "Lucía",
  lastName: "Hernández",
  dateOfBirth: "1991-06-21",
  nationality: "MEX",
  countryOfResidence: "MEX",
  relationshipToCustomer: "FAMILY",
};

export interface Tokens {
  accessToken: string;
  refreshToken: string;
  subscriptionId: string;
  nextStep: string;
}

export interface OnboardedCustomer {
  identifier: string;
  password: string;
  token: string;
  subscriptionId: string;
}

/** The answer's body when its status is `expect`; an error naming the call otherwise. */
async function expectStatus(call: Call, method: string, path: string, opts: { token?: string; body?: unknown }, expect: number) {
  const res = await call(method, path, opts);
  if (res.status !== expect) throw new Error(`${method} ${path}: expected ${expect}, got ${res.status} ${res.text.slice(0, 500)}`);
  return res.body;
}

/** Reads until `done` holds (every 100 ms, then less often), or fails after `timeoutMs`. */
async function poll<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (let delay = 100; ; delay = Math.min(delay * 2, 1000)) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}; last read: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, delay));
  }
}

/** Registers a customer (start, the sandbox's one-time code, verify, set the password): its tokens. */
export async function registerCustomer(
  call: Call,
  identifier: string,
  password = DEFAULT_PASSWORD,
): Promise<{ identifier: string; password: string; tokens: Tokens }> {
  const start = await expectStatus(call, "POST", "/v1/auth/register/start", { body: { identifier } }, 200);
  const { otp } = await expectStatus(call, "GET", `/v1/sandbox/otp?identifier=${encodeURIComponent(identifier)}`, {}, 200);
  await expectStatus(call, "POST", "/v1/auth/register/verify-otp", { body: { registrationId: start.registrationId, otp } }, 200);
  const tokens = await expectStatus(call, "POST", "/v1/auth/register/set-password", { body: { registrationId: start.registrationId, password } }, 201);
  return { identifier, password, tokens };
}

export interface OnboardOptions {
  identifier?: string;
  password?: string;
  profile?: Record<string, unknown>;
  /** false: stop once the profile is in (a PENDING customer, KYC still to do). */
  kyc?: boolean;
  /** The status the approved customer settles in (MONITORED: a close watch-list match). */
  status?: "VALID" | "MONITORED";
  timeoutMs?: number;
  /** Told each step as it is done (the demo prints them). */
  onStep?: (label: string, detail?: string) => void;
}

/** Registers a customer, submits the profile and (unless kyc is false) has KYC approved and waits for `status`. */
export async function onboardCustomer(call: Call, opts: OnboardOptions = {}): Promise<OnboardedCustomer> {
  const step = opts.onStep ?? (() => {});
  const identifier = opts.identifier ?? `customer.${randomUUID().slice(0, 8)}@example.com`;
  const { password, tokens } = await registerCustomer(call, identifier, opts.password);
  step("registered", identifier);
  const customer = { identifier, password, token: tokens.accessToken, subscriptionId: tokens.subscriptionId };
  const token = customer.token;
  await expectStatus(call, "POST", "/v1/core/profile", { token, body: opts.profile ?? SAMPLE_PROFILE }, 200);
  step("profile submitted");
  if (opts.kyc === false) return customer;
  const kyc = await expectStatus(call, "POST", "/v1/core/kyc-sessions", { token }, 200);
  await expectStatus(call, "POST", `/v1/sandbox/kyc-sessions/${encodeURIComponent(kyc.kycSessionId)}/complete`, { token, body: { outcome: "APPROVED" } }, 200);
  const status = opts.status ?? "VALID";
  const profile = await poll(
    `customer ${status}`,
    () => call("GET", "/v1/core/profile", { token }),
    (p) => p.status === 200 && p.body.status === status,
    opts.timeoutMs ?? 30_000,
  );
  step("KYC approved", `status ${profile.body.status}, kycStatus ${profile.body.kycStatus}`);
  return customer;
}

/** Adds a beneficiary (SAMPLE_BENEFICIARY by default) and waits for its screening: its id once VALID. */
export async function validBeneficiary(call: Call, token: string, body: Record<string, unknown> = SAMPLE_BENEFICIARY, timeoutMs = 30_000): Promise<string> {
  const created = await expectStatus(call, "POST", "/v1/core/beneficiaries", { token, body }, 202);
  const screened = await poll(
    "beneficiary screening",
    () => call("GET", `/v1/core/beneficiaries/${encodeURIComponent(created.beneficiaryId)}`, { token }),
    (b) => b.status === 200 && b.body.state !== "PENDING",
    timeoutMs,
  );
  if (screened.body.state !== "VALID") throw new Error(`beneficiary ${created.beneficiaryId} ${screened.body.state}`);
  return created.beneficiaryId as string;
}
