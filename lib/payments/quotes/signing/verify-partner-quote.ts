/**
 * Verification of a partner-signed quote (spec 5.4; decisions 6: a PARTNER_SIGNED partner sends
 * `partnerQuote`, verified at creation and again at acceptance). Order:
 * 1. raw token, header and payload form (compact-jws-preflight), key chosen by kid (partner-key);
 * 2. the RS256 signature, by jose, with only that key and only RS256 allowed;
 * 3. the claims (quote-claims), then the time rules that depend on now and the quote class.
 * Claims are only read once the signature holds, so unsigned data never shapes an answer.
 * Binding, sequence, envelope and amount checks (quote.bindingMismatch, quote.sequenceGap, ...)
 * need stored state and belong to the caller.
 *
 * Every failure is a DomainError: quote.signatureInvalid (form, header, key, signature),
 * quote.invalid (claims), quote.expired (exp reached); details.failedCheck names the rule.
 */
import { compactVerify } from "jose";
import { iso } from "@/lib/platform/clock";
import { DomainError } from "@/lib/platform/errors";
import { preflightCompactJws } from "./compact-jws-preflight";
import { importPartnerKey, selectPartnerKey, type PartnerJwks } from "./partner-key";
import { invalidClaim, readQuoteClaims, type PartnerQuoteClaims } from "./quote-claims";
import { signatureInvalid } from "./signature-invalid";

export type { PartnerQuoteClaims } from "./quote-claims";
export type { PartnerJwks } from "./partner-key";

/**
 * Tolerated partner clock lead for iat. Quotes live 60 s in the general case (spec 8), so a
 * larger allowance would be a large share of the validity; 5 s absorbs NTP-synchronised drift.
 */
export const IAT_CLOCK_SKEW_SECONDS = 5;

export interface VerifyPartnerQuoteInput {
  /** The partner's published keys (spec 5.4). */
  jwks: PartnerJwks;
  /** The current instant (clock.now() in production); never read from Date here. */
  now: Date;
  /** Class limit of exp - iat: 60 in general, 1800 for the OFFLINE / cash_pickup class (decisions 6). */
  maxTtlSeconds: number;
}

function checkInput(input: unknown): VerifyPartnerQuoteInput {
  const candidate = input as Partial<VerifyPartnerQuoteInput> | null | undefined;
  const ok =
    candidate !== null &&
    typeof candidate === "object" &&
    candidate.now instanceof Date &&
    Number.isFinite(candidate.now.getTime()) &&
    Number.isSafeInteger(candidate.maxTtlSeconds) &&
    (candidate.maxTtlSeconds as number) > 0;
  // A bad now or class limit is the caller's bug, not the partner's: report it as such.
  if (!ok) throw new DomainError("server.unexpected", { details: { failedCheck: "verifierInput" } });
  return candidate as VerifyPartnerQuoteInput;
}

function checkTimes(claims: PartnerQuoteClaims, now: Date, maxTtlSeconds: number): void {
  if (claims.exp - claims.iat > maxTtlSeconds) throw invalidClaim("ttlExceeded", "exp");
  const nowMs = now.getTime();
  if (claims.iat * 1000 > nowMs + IAT_CLOCK_SKEW_SECONDS * 1000) throw invalidClaim("iatInFuture", "iat");
  // Valid while now < exp; at exp itself the quote is over.
  if (claims.exp * 1000 <= nowMs) {
    throw new DomainError("quote.expired", {
      message: "The quote has expired.",
      // QuoteExpiredDetails of spec 7; safe to echo, the signature has been verified.
      details: { failedCheck: "expired", quoteId: claims.quote_id, quoteExpiredAt: iso(new Date(claims.exp * 1000)) },
    });
  }
}

async function verify(compactJws: unknown, input: unknown): Promise<PartnerQuoteClaims> {
  const { jwks, now, maxTtlSeconds } = checkInput(input);
  const { kid, payload } = preflightCompactJws(compactJws);
  const key = await importPartnerKey(selectPartnerKey(jwks, kid));
  try {
    await compactVerify(compactJws as string, key, { algorithms: ["RS256"] });
  } catch {
    throw signatureInvalid("signature");
  }
  const claims = readQuoteClaims(payload);
  checkTimes(claims, now, maxTtlSeconds);
  return claims;
}

/** Verifies a partner's compact JWS quote exactly as spec 5.4 defines; never throws anything but DomainError. */
export async function verifyPartnerQuote(compactJws: string, input: VerifyPartnerQuoteInput): Promise<PartnerQuoteClaims> {
  try {
    return await verify(compactJws, input);
  } catch (error) {
    if (error instanceof DomainError) throw error;
    // Anything else is a defect or a library surprise; fail closed without echoing its message.
    throw signatureInvalid("unexpected");
  }
}
