import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { config } from "@/lib/platform/config";
import { chooseProvider } from "@/lib/platform/providers/choose";

/**
 * A payout aggregator's asynchronous API, as the routed payout (lib/payments/payouts/routed.ts) expects it:
 * submit a payout (the answer says taken or refused; the outcome arrives later by a signed status
 * webhook), cancel one not yet paid, and read a status webhook. Shaped on the aggregators' money
 * transfer APIs (a transaction created under our external id, confirmed, then COMPLETED,
 * REJECTED or CANCELLED by callback). The domain never names the implementation.
 */
export interface AggregatorPayoutRequest {
  /** Our attempt id: the aggregator's external id, so a retried submit and every webhook name it. */
  externalId: string;
  amount: string;
  currency: string;
  /** Destination country (alpha-2) and method (bank_account, mobile_money, ...). */
  country: string;
  method: string;
  beneficiary: { name: string; account: { scheme: string; id: string }; address?: StructuredAddress };
  originator: { name: string; customerId: string; dateOfBirth?: string; address?: StructuredAddress };
  purpose: string;
}

/** ISO 20022 postal address elements (the structured form SWIFT requires from November 2026). */
export interface StructuredAddress {
  streetName?: string;
  postCode?: string;
  townName: string;
  countrySubDivision?: string;
  country: string;
  addressLines?: string[];
}

/** The answer to a submit. A submit that got no answer throws AggregatorUnavailable. */
export type AggregatorSubmitAnswer =
  | { status: "ACCEPTED"; reference: string; raw: Record<string, unknown> }
  | { status: "REJECTED"; reference: string | null; reasonCode: string; reasonText: string; raw: Record<string, unknown> };

/**
 * A payout's status as the aggregator reports it: paid, refused, cancelled before paying, or
 * REVERSED (a payment it made was reversed and the money returned to our balance with it).
 */
export const AGGREGATOR_STATUSES = ["COMPLETED", "REJECTED", "CANCELLED", "REVERSED"] as const;
export type AggregatorStatusValue = (typeof AGGREGATOR_STATUSES)[number];

/** A status webhook, read and authenticated: which payout (our external id) and how it ended. */
export interface AggregatorStatus {
  externalId: string;
  reference: string | null;
  status: AggregatorStatusValue;
  reasonCode: string | null;
  raw: Record<string, unknown>;
}

/**
 * A status webhook as read: not signed by the aggregator (or altered), signed but not a status we
 * can read, or a status with the time it was signed at (the receiver refuses old ones: a replay).
 */
export type AggregatorWebhook = { kind: "unsigned" } | { kind: "malformed" } | { kind: "status"; status: AggregatorStatus; signedAt: Date };

/** No answer (timeout) or the provider refusing service (5xx, connection refused): retryable elsewhere. */
export class AggregatorUnavailable extends Error {
  constructor(
    readonly kind: "TIMEOUT" | "PROVIDER_DOWN",
    message: string,
  ) {
    super(message);
  }
}

/** Verification of payee (EU VoP, UK CoP): does the name match the account's holder? */
export const PAYEE_VERIFICATION_RESULTS = ["MATCH", "CLOSE_MATCH", "NO_MATCH", "NOT_POSSIBLE"] as const;
export type PayeeVerificationResult = (typeof PAYEE_VERIFICATION_RESULTS)[number];

export interface PayeeVerificationRequest {
  name: string;
  account: { scheme: string; id: string };
  /** Destination country, alpha-2. */
  country: string;
}

export interface PayeeVerificationAnswer {
  result: PayeeVerificationResult;
  /** CLOSE_MATCH: the name the bank holds for the account. */
  nameHeld?: string;
  raw: Record<string, unknown>;
}

/**
 * Sandbox payee verification, driven by the beneficiary's last name (README, "Sandbox payee
 * verification"): Closematch, Nomatch, Unverifiable; any other name matches.
 */
export function sandboxPayeeVerification(name: string): Omit<PayeeVerificationAnswer, "raw"> {
  const words = name.trim().split(/\s+/);
  const last = (words.at(-1) ?? "").toLowerCase();
  if (last === "closematch") return { result: "CLOSE_MATCH", nameHeld: `${words.slice(0, -1).join(" ")} Closematch Ortega`.trim() };
  if (last === "nomatch") return { result: "NO_MATCH" };
  if (last === "unverifiable") return { result: "NOT_POSSIBLE" };
  return { result: "MATCH" };
}

/**
 * A provider's balance statement, as the prefunding reconciliation reads it: the provider's id of
 * the statement, the time its balances are for, and the closing balance per currency (signed
 * decimal strings: a provider may let the balance go below zero).
 */
export interface ProviderBalanceStatement {
  reference: string;
  asOf: Date;
  balances: { currency: string; amount: string }[];
}

/**
 * The aggregator's balance statement format (its downloadable statement file, JSON; its statement
 * endpoint answers the same body), shaped on the aggregators' balance reports:
 * `{"statement_id", "generated_at" (ISO 8601 with offset), "balances": [{"currency", "closing_balance"}]}`.
 */
export const AGGREGATOR_STATEMENT_FORMAT = z.object({
  statement_id: z.string().trim().min(1).max(140),
  generated_at: z.iso.datetime({ offset: true }),
  balances: z
    .array(
      z.object({
        currency: z.string().regex(/^[A-Z]{3}$/),
        closing_balance: z.string().regex(/^-?(0|[1-9][0-9]*)([.][0-9]+)?$/),
      }),
    )
    .min(1),
});

/** The aggregator's statement read, or null when the text is not one (not JSON, or outside the format). */
export function readAggregatorStatement(text: string): ProviderBalanceStatement | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = AGGREGATOR_STATEMENT_FORMAT.safeParse(raw);
  if (!parsed.success) return null;
  return {
    reference: parsed.data.statement_id,
    asOf: new Date(parsed.data.generated_at),
    balances: parsed.data.balances.map((b) => ({ currency: b.currency, amount: b.closing_balance })),
  };
}

export interface PayoutAggregator {
  readonly name: string;
  /** The provider's balance statement (its file or its endpoint's body) read; null when the text is not one. */
  readBalanceStatement(text: string): ProviderBalanceStatement | null;
  /** Checks the name on the destination account before the customer confirms (answered in seconds). */
  verifyPayee(request: PayeeVerificationRequest, signal?: AbortSignal): Promise<PayeeVerificationAnswer>;
  submit(request: AggregatorPayoutRequest, signal?: AbortSignal): Promise<AggregatorSubmitAnswer>;
  /** Asks the aggregator to stop or reverse a payout (a late success after failover). */
  cancel(externalId: string, signal?: AbortSignal): Promise<{ status: "CANCELLED" | "REVERSAL_REQUESTED" | "REFUSED"; raw: Record<string, unknown> }>;
  /** The webhook's body read after its signature (the X-Aggregator-Signature header) is checked. */
  readWebhook(body: string, signature: string | null): AggregatorWebhook;
}

/**
 * Sandbox outcomes, driven by the destination: the digits of the account number (or phone, or
 * wallet) containing "9990" followed by one digit choose the outcome; any other destination is
 * accepted and paid. The marker sits in the account part, so valid CLABEs, IBANs and NUBANs can
 * carry it (README, "Sandbox payout outcomes").
 */
export const SANDBOX_AGGREGATOR_OUTCOMES = {
  "99901": "TIMEOUT",
  "99902": "PROVIDER_DOWN",
  "99903": "REJECTED_AC01",
  "99904": "REJECTED_AC04",
  "99905": "REJECTED_TECHNICAL",
} as const;
export type SandboxAggregatorOutcome = (typeof SANDBOX_AGGREGATOR_OUTCOMES)[keyof typeof SANDBOX_AGGREGATOR_OUTCOMES] | "ACCEPTED";

export function sandboxAggregatorOutcome(destination: string): SandboxAggregatorOutcome {
  const digits = destination.replace(/\D+/g, "");
  for (const [marker, outcome] of Object.entries(SANDBOX_AGGREGATOR_OUTCOMES)) if (digits.includes(marker)) return outcome;
  return "ACCEPTED";
}

/**
 * The signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. The time is
 * signed with the body, so a captured delivery cannot be replayed later under a fresh time.
 */
const sign = (secret: string, body: string, t: number) => createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");

function readStatus(body: string): AggregatorStatus | null {
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof raw !== "object" || raw === null) return null;
  const r = raw as Record<string, unknown>;
  const status = AGGREGATOR_STATUSES.find((x) => x === r.status);
  if (typeof r.external_id !== "string" || !status) return null;
  return {
    externalId: r.external_id,
    reference: typeof r.id === "string" ? r.id : null,
    status,
    reasonCode: typeof r.status_reason_code === "string" ? r.status_reason_code : null,
    raw: r,
  };
}

function verified(secret: string, body: string, signature: string | null): AggregatorWebhook {
  if (!secret || !signature) return { kind: "unsigned" };
  const parts = new Map(
    signature.split(",").map((p) => {
      const at = p.indexOf("=");
      return [p.slice(0, at).trim(), p.slice(at + 1).trim()] as const;
    }),
  );
  const t = parts.get("t") ?? "";
  const v1 = parts.get("v1") ?? "";
  if (!/^\d{1,12}$/.test(t) || !/^[0-9a-f]{64}$/.test(v1)) return { kind: "unsigned" };
  const want = Buffer.from(sign(secret, body, Number(t)), "hex");
  if (!timingSafeEqual(want, Buffer.from(v1, "hex"))) return { kind: "unsigned" };
  const status = readStatus(body);
  return status ? { kind: "status", status, signedAt: new Date(Number(t) * 1000) } : { kind: "malformed" };
}

/** The sandbox's webhook secret: the sandbox endpoint signs with it, as a test would. */
export const SANDBOX_AGGREGATOR_SECRET = "sandbox-aggregator-secret";

/** The signature header of a status body as the aggregator sends it, signed at `at` (the sandbox stand-in and tests). */
export const signAggregatorBody = (body: string, at: Date, secret = SANDBOX_AGGREGATOR_SECRET) => {
  const t = Math.floor(at.getTime() / 1000);
  return `t=${t},v1=${sign(secret, body, t)}`;
};

const sandbox: PayoutAggregator = {
  name: "sandbox",
  readBalanceStatement: readAggregatorStatement,
  async verifyPayee(request) {
    const answer = sandboxPayeeVerification(request.name);
    return { ...answer, raw: { result: answer.result, ...(answer.nameHeld ? { name: answer.nameHeld } : {}) } };
  },
  async submit(request) {
    const reference = `sbx_${request.externalId}`;
    const outcome = sandboxAggregatorOutcome(request.beneficiary.account.id);
    const raw = { id: reference, external_id: request.externalId, status: outcome };
    switch (outcome) {
      case "TIMEOUT":
        throw new AggregatorUnavailable("TIMEOUT", "sandbox aggregator: no answer (test destination 99901)");
      case "PROVIDER_DOWN":
        throw new AggregatorUnavailable("PROVIDER_DOWN", "sandbox aggregator: 503 Service Unavailable (test destination 99902)");
      case "REJECTED_AC01":
        return { status: "REJECTED", reference, reasonCode: "AC01", reasonText: "Incorrect account number", raw };
      case "REJECTED_AC04":
        return { status: "REJECTED", reference, reasonCode: "AC04", reasonText: "Closed account number", raw };
      case "REJECTED_TECHNICAL":
        return { status: "REJECTED", reference, reasonCode: "MS03", reasonText: "Not specified reason agent generated", raw };
      default:
        return { status: "ACCEPTED", reference, raw: { ...raw, status: "CONFIRMED" } };
    }
  },
  async cancel(externalId) {
    return { status: "REVERSAL_REQUESTED", raw: { external_id: externalId, status: "REVERSAL_REQUESTED" } };
  },
  readWebhook: (body, signature) => verified(SANDBOX_AGGREGATOR_SECRET, body, signature),
};

/**
 * Production: the aggregator's HTTPS API at PAYOUT_AGGREGATOR_URL with PAYOUT_AGGREGATOR_KEY,
 * webhooks signed with PAYOUT_AGGREGATOR_WEBHOOK_SECRET (hex HMAC-SHA256 of the signing time and the body). Runs only
 * in jobs, outside any transaction; the job's signal bounds each call.
 */
const http: PayoutAggregator = {
  name: "http",
  readBalanceStatement: readAggregatorStatement,
  async verifyPayee(request, signal) {
    const answer = await call("POST", "/payee-verifications", request, signal);
    const raw = answer.body;
    const result = PAYEE_VERIFICATION_RESULTS.find((r) => r === raw.result);
    if (answer.status >= 300 || !result) return { result: "NOT_POSSIBLE", raw };
    return { result, ...(result === "CLOSE_MATCH" && typeof raw.name === "string" ? { nameHeld: raw.name } : {}), raw };
  },
  async submit(request, signal) {
    const answer = await call("POST", "/payouts", request, signal);
    const raw = answer.body;
    const reference = typeof raw.id === "string" ? raw.id : null;
    if (answer.status >= 200 && answer.status < 300 && reference) return { status: "ACCEPTED", reference, raw };
    if (answer.status === 422 || answer.status === 400)
      return {
        status: "REJECTED",
        reference,
        reasonCode: typeof raw.status_reason_code === "string" ? raw.status_reason_code : "NARR",
        reasonText: typeof raw.status_message === "string" ? raw.status_message : "refused",
        raw,
      };
    throw new AggregatorUnavailable("PROVIDER_DOWN", `aggregator answered ${answer.status}`);
  },
  async cancel(externalId, signal) {
    const answer = await call("POST", `/payouts/${encodeURIComponent(externalId)}/cancel`, {}, signal);
    if (answer.status >= 500) throw new AggregatorUnavailable("PROVIDER_DOWN", `aggregator answered ${answer.status}`);
    return { status: answer.status < 300 ? "CANCELLED" : "REFUSED", raw: answer.body };
  },
  readWebhook: (body, signature) => verified(config().PAYOUT_AGGREGATOR_WEBHOOK_SECRET ?? "", body, signature),
};

async function call(method: string, path: string, body: unknown, signal?: AbortSignal): Promise<{ status: number; body: Record<string, unknown> }> {
  const c = config();
  const timeout = AbortSignal.timeout(c.PAYOUT_AGGREGATOR_TIMEOUT_MS);
  try {
    const res = await fetch(new URL(path, c.PAYOUT_AGGREGATOR_URL), {
      method,
      headers: { "content-type": "application/json", authorization: `Bearer ${c.PAYOUT_AGGREGATOR_KEY}` },
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    const text = await res.text();
    let parsed: unknown = {};
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      parsed = { body: text.slice(0, 500) };
    }
    return { status: res.status, body: typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {} };
  } catch (err) {
    if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError"))
      throw new AggregatorUnavailable("TIMEOUT", "aggregator: no answer in time");
    throw new AggregatorUnavailable("PROVIDER_DOWN", `aggregator unreachable: ${err instanceof Error ? err.message : String(err)}`);
  }
}

export const PRODUCTION_PAYOUT_AGGREGATORS: Record<string, PayoutAggregator> = { http };
export const SANDBOX_PAYOUT_AGGREGATORS: Record<string, PayoutAggregator> = { sandbox };

export function payoutAggregatorFor(name: string, sandboxMode: boolean): PayoutAggregator {
  return chooseProvider("payoutAggregator", name, sandboxMode, PRODUCTION_PAYOUT_AGGREGATORS, SANDBOX_PAYOUT_AGGREGATORS);
}

/** The aggregator this service is configured with. */
export function payoutAggregator(): PayoutAggregator {
  const c = config();
  return payoutAggregatorFor(c.providers.payoutAggregator, c.sandbox);
}
