/**
 * Test helpers that play a (possibly malicious) partner: they sign arbitrary header and payload
 * text with node:crypto, so tokens the real signer would never produce can be built byte by byte.
 */
import assert from "node:assert/strict";
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { DomainError } from "@/lib/platform/errors";
import { canonicalJson } from "@/lib/payments/quotes/signing/jcs";
import type { PartnerQuoteClaims } from "@/lib/payments/quotes/signing/verify-partner-quote";
import { signCompact, type Alg } from "../../support/jws";

export { b64u, withSegment, type Alg } from "../../support/jws";

export const KID = "partner-key-1";
/** 2025-06-01T12:00:00Z: a fixed "now" so tests never depend on the wall clock. */
export const NOW = new Date("2025-06-01T12:00:00.000Z");
export const NOW_S = NOW.getTime() / 1000;

export function rsaKeyPair(modulusLength = 2048): { publicKey: KeyObject; privateKey: KeyObject } {
  return generateKeyPairSync("rsa", { modulusLength });
}

export function publicJwk(publicKey: KeyObject, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...publicKey.export({ format: "jwk" }), kid: KID, use: "sig", alg: "RS256", ...extra };
}

export function isoSeconds(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString();
}

export function validClaims(overrides: Partial<Record<keyof PartnerQuoteClaims, unknown>> = {}): Record<string, unknown> {
  const iat = NOW_S - 1;
  const exp = iat + 60;
  return {
    quote_signature_v1: "v1",
    quote_id: "q-0001",
    jti: "jti-0001",
    partner_id: "partner-1",
    partner_quote_seq: 42,
    subscription_id: "sub-1",
    send_amount: "100.00",
    send_currency: "USD",
    receive_amount: "1712.35",
    receive_currency: "MXN",
    beneficiary_country: "MX",
    beneficiary_currency: "MXN",
    corridor: "US-MX",
    corridor_type: "OPEN_PAYMENT",
    fx_rate: "17.1235",
    partner_fee: "2.50",
    principal_fee: "1.99",
    total_consumer_cost: "104.49",
    iat,
    exp,
    issued_at: isoSeconds(iat),
    expires_at: isoSeconds(exp),
    ...overrides,
  };
}

export interface RawTokenOptions {
  /** Header object (JSON.stringify'd) or exact header text. */
  header?: Record<string, unknown> | string;
  /** Payload object (JCS-canonicalised), exact text, or exact bytes. */
  payload?: Record<string, unknown> | string | Uint8Array;
  privateKey: KeyObject;
  /** How the signature is computed (independent of what the header claims). */
  alg?: Alg;
  hmacSecret?: Uint8Array | string;
}

/** base64url(header).base64url(payload).base64url(signature), signed by hand. */
export function rawToken(options: RawTokenOptions): string {
  const header = options.header ?? { alg: "RS256", kid: KID, typ: "JWT" };
  const headerText = typeof header === "string" ? header : JSON.stringify(header);
  const payload = options.payload ?? validClaims();
  const payloadBytes = payload instanceof Uint8Array ? payload : Buffer.from(typeof payload === "string" ? payload : canonicalJson(payload), "utf8");
  const alg = options.alg ?? "RS256";
  return signCompact(headerText, payloadBytes, alg === "HS256" ? (options.hmacSecret ?? "") : options.privateKey, alg);
}

export interface Expected {
  code: string;
  failedCheck: string;
  claim?: string;
  /** Exact details when they carry more than failedCheck and claim. */
  details?: Record<string, unknown>;
}

/** Asserts a DomainError with exactly this code and exactly these details (nothing else leaks). */
export async function assertRejects(promise: Promise<unknown>, expected: Expected): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof DomainError, `expected DomainError, got ${String(error)}`);
    assert.equal(error.code, expected.code);
    const details: Record<string, unknown> = expected.details ?? { failedCheck: expected.failedCheck };
    if (expected.claim !== undefined) details.claim = expected.claim;
    assert.deepEqual(error.details, details);
    return true;
  });
}
