/**
 * The signed-quote claim set of spec 5.4 and its shape rules. Shared by the verifier (partner
 * quotes) and the signer (the service's own signedQuote, decisions 6), so both sides agree on
 * exactly one definition. Time rules that depend on "now" or on the quote class live in the
 * verifier; this file only checks what a claim set must satisfy on its own.
 */
import { DomainError } from "@/lib/platform/errors";

export interface PartnerQuoteClaims {
  quote_signature_v1: "v1";
  quote_id: string;
  jti: string;
  partner_id: string;
  /** Safe positive integer; strictly increasing per partner (checked at acceptance, not here). */
  partner_quote_seq: number;
  subscription_id: string;
  send_amount: string;
  send_currency: string;
  receive_amount: string;
  receive_currency: string;
  beneficiary_country: string;
  beneficiary_currency: string;
  corridor: string;
  corridor_type: string;
  fx_rate: string;
  partner_fee: string;
  principal_fee: string;
  total_consumer_cost: string;
  /** Epoch seconds. */
  iat: number;
  /** Epoch seconds. */
  exp: number;
  /** RFC 3339 UTC, the same instant as iat in whole seconds. */
  issued_at: string;
  /** RFC 3339 UTC, the same instant as exp in whole seconds. */
  expires_at: string;
}

type ClaimRule = "v1" | "text" | "currency" | "decimal" | "seq" | "epoch" | "utc";

/** Every claim of spec 5.4, all required, with its exact snake_case name. */
const RULES: Readonly<Record<keyof PartnerQuoteClaims, ClaimRule>> = {
  quote_signature_v1: "v1",
  quote_id: "text",
  jti: "text",
  partner_id: "text",
  partner_quote_seq: "seq",
  subscription_id: "text",
  send_amount: "decimal",
  send_currency: "currency",
  receive_amount: "decimal",
  receive_currency: "currency",
  beneficiary_country: "text",
  beneficiary_currency: "currency",
  corridor: "text",
  corridor_type: "text",
  fx_rate: "decimal",
  partner_fee: "decimal",
  principal_fee: "decimal",
  total_consumer_cost: "decimal",
  iat: "epoch",
  exp: "epoch",
  issued_at: "utc",
  expires_at: "utc",
};

export const REQUIRED_QUOTE_CLAIMS = Object.keys(RULES) as ReadonlyArray<keyof PartnerQuoteClaims>;

/** Money is a decimal string (spec 5.4): no sign, no exponent, no leading zeros, no bare ".". */
const DECIMAL = /^(0|[1-9]\d*)(\.\d+)?$/;
/** ISO 4217 alphabetic code shape. */
const CURRENCY = /^[A-Z]{3}$/;
/** RFC 3339 restricted to UTC ("Z"), upper-case T and Z, optional fraction. */
const RFC3339_UTC = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?Z$/;

export function invalidClaim(failedCheck: string, claim?: string): DomainError {
  return new DomainError("quote.invalid", {
    message: "The signed quote's claims are invalid.",
    details: claim === undefined ? { failedCheck } : { failedCheck, claim },
  });
}

/**
 * Whole epoch seconds of an RFC 3339 UTC timestamp, or undefined if it is not one or names a day
 * or time that does not exist (2025-02-30, 24:00, leap second 60: refused rather than rolled over).
 */
export function utcWholeSeconds(s: string): number | undefined {
  const m = RFC3339_UTC.exec(s);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const d = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0-99 to 1900-1999.
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, 0);
  if (
    d.getUTCFullYear() !== year ||
    d.getUTCMonth() !== month - 1 ||
    d.getUTCDate() !== day ||
    d.getUTCHours() !== hour ||
    d.getUTCMinutes() !== minute ||
    d.getUTCSeconds() !== second
  ) {
    return undefined;
  }
  // The fraction is dropped: "compare as instants in whole seconds" (iat/exp are integers).
  return d.getTime() / 1000;
}

function checkClaim(name: string, rule: ClaimRule, value: unknown): void {
  const expectedType = rule === "seq" || rule === "epoch" ? "number" : "string";
  if (typeof value !== expectedType) throw invalidClaim("claimType", name);
  const ok = (() => {
    switch (rule) {
      case "v1":
        return value === "v1";
      case "text":
        return (value as string).length > 0;
      case "currency":
        return CURRENCY.test(value as string);
      case "decimal":
        return DECIMAL.test(value as string);
      case "seq":
        // A number (never a string) that survives a round trip through a double exactly.
        return Number.isSafeInteger(value) && (value as number) > 0;
      case "epoch":
        return Number.isSafeInteger(value) && (value as number) >= 0;
      case "utc":
        return utcWholeSeconds(value as string) !== undefined;
    }
  })();
  if (!ok) throw invalidClaim("claimFormat", name);
}

/**
 * The claims of a decoded payload, checked against spec 5.4: every claim present with its type
 * and format, issued_at/expires_at the same instants as iat/exp, and exp after iat. Throws
 * DomainError quote.invalid. Returns a fresh object holding only the spec's claims.
 */
export function readQuoteClaims(payload: unknown): PartnerQuoteClaims {
  if (payload === null || typeof payload !== "object" || Array.isArray(payload)) {
    throw invalidClaim("claimsObject");
  }
  const source = payload as Record<string, unknown>;
  const claims: Record<string, unknown> = {};
  for (const name of REQUIRED_QUOTE_CLAIMS) {
    // Own members only: a JSON object's prototype must never supply a claim.
    if (!Object.prototype.hasOwnProperty.call(source, name)) throw invalidClaim("claimMissing", name);
    checkClaim(name, RULES[name], source[name]);
    claims[name] = source[name];
  }
  const result = claims as unknown as PartnerQuoteClaims;
  if (utcWholeSeconds(result.issued_at) !== result.iat) throw invalidClaim("issuedAtMismatch", "issued_at");
  if (utcWholeSeconds(result.expires_at) !== result.exp) throw invalidClaim("expiresAtMismatch", "expires_at");
  if (!(result.exp > result.iat)) throw invalidClaim("expNotAfterIat", "exp");
  return result;
}
