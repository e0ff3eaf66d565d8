import { randomUUID } from "node:crypto";
import { registerCustomer as registerThrough, type Tokens } from "../../../scripts/lib/onboarding";
import { checkAgainstContract } from "./contract-check";

/** HTTP client for integration tests: talks to the real app started by scripts/test.mjs. */
export const BASE_URL = process.env.TEST_BASE_URL ?? "http://127.0.0.1:3000";
export const PARTNER_KEY = process.env.TEST_PARTNER_KEY ?? "sandbox-demo-key";

export interface CallOptions {
  body?: unknown;
  /** Sent as is (for malformed JSON, wrong encodings). */
  rawBody?: string | Uint8Array;
  token?: string;
  /** Subscription key; null sends none. */
  key?: string | null;
  headers?: Record<string, string>;
  idempotencyKey?: string | null;
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

export async function call<T = any>(method: string, path: string, opts: CallOptions = {}): Promise<CallResult<T>> {
  const headers: Record<string, string> = { accept: "application/json", ...opts.headers };
  const key = opts.key === undefined ? PARTNER_KEY : opts.key;
  if (key !== null) headers["ocp-apim-subscription-key"] = key;
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: BodyInit | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody as BodyInit;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["content-type"] ??= "application/json";
  }
  if (opts.idempotencyKey !== undefined && opts.idempotencyKey !== null) headers["idempotency-key"] = opts.idempotencyKey;
  else if (opts.idempotencyKey === undefined && method !== "GET" && path.startsWith("/v1/core")) headers["idempotency-key"] = randomUUID();
  const res = await fetch(`${BASE_URL}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  // Every answer is what its contract says (support/contract-check.ts), or the test fails here.
  checkAgainstContract(method, path, res.status, parsed, res.headers.get("content-type"));
  return { status: res.status, headers: res.headers, text, body: parsed as T };
}

export const uniqueEmail = (tag = "user") => `${tag}.${randomUUID().slice(0, 8)}@example.com`;
export const uniquePhone = () => `+1415555${String(Math.floor(Math.random() * 10000)).padStart(4, "0")}`;
export const PASSWORD = "correct horse battery staple";

export async function latestOtp(identifier: string, key = PARTNER_KEY): Promise<string | null> {
  const res = await call("GET", `/v1/sandbox/otp?identifier=${encodeURIComponent(identifier)}`, { key });
  if (res.status !== 200) throw new Error(`no OTP for ${identifier}: ${res.text}`);
  return res.body.otp;
}

export type { Tokens };

/** Registers a new customer through the public Auth API (of the partner owning `key`) and returns its tokens. */
export async function registerCustomer(
  identifier = uniqueEmail(),
  password = PASSWORD,
  key = PARTNER_KEY,
): Promise<{ identifier: string; password: string; tokens: Tokens }> {
  return registerThrough((method, path, opts) => call(method, path, { ...opts, key }), identifier, password);
}

export async function loginCustomer(identifier: string, password = PASSWORD): Promise<CallResult> {
  const start = await call("POST", "/v1/auth/start", { body: { identifier } });
  return call("POST", "/v1/auth/login", { body: { loginAttemptId: start.body.loginAttemptId, password } });
}

/** Polls until `check` returns a value, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 10_000, what = "condition"): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Asserts the error envelope shape and returns the error. */
export function errorOf(res: CallResult): { code: string; message: string; hint: string | null; remediation: string | null; details: any } {
  const b = res.body;
  if (!b || typeof b !== "object" || !b.error || typeof b.correlationId !== "string") throw new Error(`not an error envelope: ${res.text}`);
  return b.error;
}
