/**
 * Which implementation serves each provider kind: data, read like the state-machine
 * tables. lib/platform/config parses each setting against its `implementations`; `providers()` resolves
 * them once per process; each capability's own factory (screeningProvider(), the OTP notifier, ...)
 * switches on the resolved name. Nothing here imports a capability, so the table stays a leaf.
 */
export const PROVIDER_KINDS = [
  "otpEmail",
  "otpSms",
  "screening",
  "pep",
  "referenceRates",
  "kycDecision",
  "funding",
  "payout",
  "payoutAggregator",
  "refunds",
] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

export interface ProviderSpec {
  /** The environment setting that names the implementation. */
  setting: string;
  /** Every accepted name; "sandbox" is the simulated one. */
  implementations: readonly [string, ...string[]];
  /** Used when the setting is unset, in sandbox and production alike, unless `inferredFrom` applies. */
  defaultImplementation: string;
  /** Unset, and this other setting is present: this implementation (e.g. SMTP_URL set → smtp). */
  inferredFrom?: { setting: string; implementation: string };
  /** Production refuses to start unless the resolved implementation is one of these. */
  production: readonly string[];
  /** Settings an implementation cannot work without (checked in every mode). */
  requires?: Readonly<Record<string, readonly string[]>>;
  /** How a deployment does without this kind (production then skips it): named in its refusal line. */
  unusedWith?: string;
}

/**
 * Funding's real rail is "bank-transfer" (collection account, camt.053 statements), payout's is
 * pain001 (files to the payout banks): their production defaults ("none" is sandbox-only for
 * payout). Refunds are paid by an operator in production ("operator", its production default).
 */
export const PROVIDERS: Record<ProviderKind, ProviderSpec> = {
  otpEmail: {
    setting: "OTP_EMAIL_PROVIDER",
    implementations: ["sandbox", "smtp"],
    defaultImplementation: "sandbox",
    inferredFrom: { setting: "SMTP_URL", implementation: "smtp" },
    production: ["smtp"],
    requires: { smtp: ["SMTP_URL", "OTP_EMAIL_FROM"] },
  },
  otpSms: {
    setting: "OTP_SMS_PROVIDER",
    implementations: ["sandbox", "sms-webhook"],
    defaultImplementation: "sandbox",
    inferredFrom: { setting: "SMS_WEBHOOK_URL", implementation: "sms-webhook" },
    production: ["sms-webhook"],
    requires: { "sms-webhook": ["SMS_WEBHOOK_URL", "SMS_WEBHOOK_SECRET"] },
    // Only phone identifiers get an SMS.
    unusedWith: "LOGIN_IDENTIFIER_TYPES=email",
  },
  // The sanctions lists screen in sandbox too (with the sandbox magic names on top): default ofac.
  screening: {
    setting: "SCREENING_PROVIDER",
    implementations: ["sandbox", "ofac"],
    defaultImplementation: "ofac",
    production: ["ofac"],
  },
  // PEP screening (lib/compliance/screening/pep.ts): the OpenSanctions PEP list from PEP_SOURCE_URLS, or in
  // sandbox the shipped fixture of made-up people in the same layout (data/pep).
  pep: {
    setting: "PEP_SCREENING_PROVIDER",
    implementations: ["sandbox", "opensanctions"],
    defaultImplementation: "sandbox",
    inferredFrom: { setting: "PEP_SOURCE_URLS", implementation: "opensanctions" },
    production: ["opensanctions"],
    requires: { opensanctions: ["PEP_SOURCE_URLS"] },
  },
  // A feed URL set means the feed (sandbox too): lib/payments/pricing/rate-store.ts.
  referenceRates: {
    setting: "REFERENCE_RATES_PROVIDER",
    implementations: ["sandbox", "ecb"],
    defaultImplementation: "sandbox",
    inferredFrom: { setting: "REFERENCE_RATES_URL", implementation: "ecb" },
    production: ["ecb"],
    requires: { ecb: ["REFERENCE_RATES_URL"] },
  },
  // automatic: the MRZ read and checked here, the face matched; onfido: the vendor, its verdict by
  // signed webhook; onfido-sandbox (sandbox only): the same adapter on a simulated Onfido sandbox.
  kycDecision: {
    setting: "KYC_DECISION_PROVIDER",
    implementations: ["sandbox", "operator", "automatic", "onfido", "onfido-sandbox"],
    defaultImplementation: "sandbox",
    production: ["operator", "automatic", "onfido"],
    requires: { onfido: ["ONFIDO_API_TOKEN", "ONFIDO_WEBHOOK_TOKEN"], "onfido-sandbox": ["ONFIDO_WEBHOOK_TOKEN"] },
  },
  // Bank transfer to the collection account, reconciled from camt.053 statements.
  funding: {
    setting: "FUNDING_PROVIDER",
    implementations: ["sandbox", "bank-transfer"],
    defaultImplementation: "sandbox",
    production: ["bank-transfer"],
    requires: { "bank-transfer": ["COLLECTION_ACCOUNT_IBAN", "COLLECTION_ACCOUNT_BIC", "COLLECTION_ACCOUNT_NAME", "COLLECTION_ACCOUNT_CURRENCY"] },
  },
  // pain001: ISO 20022 credit-transfer files per payout bank (lib/payments/payouts). routed: each payout
  // goes to the provider the routing table chooses (the bank file or the aggregator's API), with
  // failover and prefunding cover (lib/payments/payouts/routed.ts).
  payout: {
    setting: "PAYOUT_PROVIDER",
    implementations: ["sandbox", "none", "pain001", "routed"],
    defaultImplementation: "sandbox",
    production: ["pain001", "routed"],
    requires: { pain001: ["PAYOUT_BANKS"], routed: ["PAYOUT_BANKS"] },
  },
  // The payout aggregator's API, one of the routed payout's providers: production needs the real
  // API (http); the sandbox aggregator answers by test destinations and is never in production's map.
  payoutAggregator: {
    setting: "PAYOUT_AGGREGATOR_PROVIDER",
    implementations: ["sandbox", "http"],
    defaultImplementation: "sandbox",
    inferredFrom: { setting: "PAYOUT_AGGREGATOR_URL", implementation: "http" },
    production: ["http"],
    requires: { http: ["PAYOUT_AGGREGATOR_URL", "PAYOUT_AGGREGATOR_KEY", "PAYOUT_AGGREGATOR_WEBHOOK_SECRET"] },
    // Only the routed payout calls the aggregator.
    unusedWith: "PAYOUT_PROVIDER=pain001",
  },
  // "operator": a refund waits in the console's "Refunds due" queue until an operator records it
  // paid from the bank (with the bank reference) or failed.
  refunds: { setting: "REFUND_PROVIDER", implementations: ["sandbox", "operator"], defaultImplementation: "sandbox", production: ["operator"] },
};

/** Production defaults: funding by bank transfer, payout by pain.001 files, refunds by the operator queue. */
const PRODUCTION_DEFAULTS: Partial<Record<ProviderKind, string>> = { funding: "bank-transfer", payout: "pain001", refunds: "operator" };

/**
 * The kinds a deployment does not use with these settings: the SMS gateway when no phone number is
 * accepted, the aggregator unless the payout is routed.
 */
export function unusedProviderKinds(env: Env, production: boolean, phones: boolean): ProviderKind[] {
  const unused: ProviderKind[] = phones ? [] : ["otpSms"];
  if (resolveProvider("payout", env, production) !== "routed") unused.push("payoutAggregator");
  return unused;
}

/** The settings, raw or parsed. */
type Env = Readonly<Record<string, unknown>>;
const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");
// A parsed setting (PAYOUT_BANKS: a list) counts as present when it holds something.
const present = (v: unknown) => (Array.isArray(v) ? v.length > 0 : typeof v === "string" ? text(v) !== "" : v !== undefined && v !== null);

/** The implementation a kind resolves to for these settings (before any check). */
export function resolveProvider(kind: ProviderKind, env: Env, production: boolean): string {
  const spec = PROVIDERS[kind];
  const set = text(env[spec.setting]);
  if (set) return set;
  if (spec.inferredFrom && present(env[spec.inferredFrom.setting])) return spec.inferredFrom.implementation;
  return (production && PRODUCTION_DEFAULTS[kind]) || spec.defaultImplementation;
}

export type ResolvedProviders = Record<ProviderKind, string>;

export function resolveProviders(env: Env, production: boolean): ResolvedProviders {
  return Object.fromEntries(PROVIDER_KINDS.map((k) => [k, resolveProvider(k, env, production)])) as ResolvedProviders;
}

/**
 * One line per problem: an unknown name, an implementation missing a setting it needs, or (in
 * production) a kind not set to a real implementation, unless the deployment does not use that
 * kind (`unused`: the SMS gateway when no phone number is accepted). Empty: the configuration is usable.
 */
export function providerProblems(env: Env, production: boolean, unused: readonly ProviderKind[] = []): string[] {
  const lines: string[] = [];
  for (const kind of PROVIDER_KINDS) {
    const spec = PROVIDERS[kind];
    const name = resolveProvider(kind, env, production);
    if (!spec.implementations.includes(name)) {
      lines.push(`${spec.setting}=${name} is not one of: ${spec.implementations.join(", ")}`);
      continue;
    }
    if (production && !spec.production.includes(name)) {
      if (unused.includes(kind)) continue;
      const how = present(env[spec.setting]) ? `is ${name}` : `is unset (${name})`;
      const without = spec.unusedWith ? ` (or ${spec.unusedWith})` : "";
      lines.push(`${spec.setting} ${how}: production needs ${spec.production.join(" or ")}${without}`);
      continue;
    }
    for (const needed of spec.requires?.[name] ?? []) {
      if (!present(env[needed])) lines.push(`${spec.setting}=${name} needs ${needed}`);
    }
  }
  return lines;
}
