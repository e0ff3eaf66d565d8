import { electronicFormatIBAN, isValidBIC, isValidIBAN } from "ibantools";
import { z } from "zod";
import { ALWAYS_CONTROLLED, CONTROLLED_ACTIONS, isControlledAction, RENAMED } from "./controlled-actions";
import { isCurrencyCode } from "@/lib/platform/money/currency";
import { MONITORING_MODES, type MonitoringMode } from "@/db/schema/monitoring";
import { Decimal } from "@/lib/platform/money/decimal";
import { fitsMinorUnit } from "@/lib/platform/money/format";
import { providerProblems, resolveProviders, unusedProviderKinds, type ResolvedProviders } from "@/lib/platform/providers/table";
import { fieldKeyProblems, parseSmtpUrl, signingKeyProblems, smtpProductionProblem, sourceSchemeProblem, URL_SCHEMES, urlSchemeProblem } from "./checks";
import { payoutBanksSetting, SANDBOX_PAYOUT_BANKS, type PayoutBank } from "./payout-banks";

/**
 * The one typed configuration module (decisions section 1). Every setting is read here, from the
 * environment, once per process; nothing else reads process.env.
 */
const seconds = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const millis = (fallback: number) => z.coerce.number().int().min(0).default(fallback);
const flag = z
  .enum(["true", "false", "1", "0", ""])
  .default("false")
  .transform((v) => v === "true" || v === "1");

/** An implementation name; lib/platform/providers/table.ts checks it against the kind's list. */
const providerName = z.string().trim().min(1).optional();

/** Each problem of a checker as one issue of the setting (one line each when refused). */
const checkedBy = (problems: (v: string) => string[]) => (v: string, ctx: z.RefinementCtx) => {
  for (const message of problems(v)) ctx.addIssue({ code: "custom", message });
};

/** The kinds of login identifier the Auth API may accept (lib/identity/auth/identifiers.ts: EMAIL, PHONE). */
export const LOGIN_IDENTIFIER_TYPES = ["EMAIL", "PHONE"] as const;
export type LoginIdentifierType = (typeof LOGIN_IDENTIFIER_TYPES)[number];

/** Comma-separated list of upper-case codes. */
const codeList = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v) =>
      v
        .split(",")
        .map((c) => c.trim().toUpperCase())
        .filter(Boolean),
    );

/** A URL setting: a URL with one of the setting's schemes (lib/platform/config/checks.ts URL_SCHEMES). */
const url = (schemes: readonly string[]) =>
  z.string().superRefine(
    checkedBy((v) => {
      const problem = urlSchemeProblem(v, schemes);
      return problem ? [problem] : [];
    }),
  );

/** Comma-separated files or http(s) URLs of one publication (the sanctions lists' source settings). */
const urlList = z
  .string()
  .default("")
  .transform((v) =>
    v
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .superRefine((sources, ctx) => {
    for (const source of sources) {
      const problem = sourceSchemeProblem(source);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }
  });

const schema = z.object({
  APP_MODE: z.enum(["sandbox", "production"]).default("sandbox"),
  DATABASE_URL: url(URL_SCHEMES.DATABASE_URL).optional(),
  PGLITE_DIR: z.string().min(1).default("./.data/pglite"),
  DATABASE_POOL_SIZE: z.coerce.number().int().positive().default(10),
  PORT: z.coerce.number().int().positive().default(3000),
  PUBLIC_BASE_URL: url(URL_SCHEMES.PUBLIC_BASE_URL).optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /**
   * The bearer token Prometheus sends to GET /metrics. Unset: the metrics are open in sandbox and
   * not served in production (404), so a production deployment exposes nothing until it chooses one.
   */
  METRICS_TOKEN: z.string().trim().min(16, "at least 16 characters (a random token: openssl rand -base64 32)").optional(),
  /**
   * Operations alerts (lib/operations/observability/alerts.ts): each incident's opening and resolution are POSTed
   * as JSON to this URL and/or e-mailed to these addresses (comma-separated, over SMTP_URL from
   * OTP_EMAIL_FROM). Neither set: incidents are only listed on the console's Overview.
   */
  OPERATIONS_ALERT_WEBHOOK_URL: url(URL_SCHEMES.OPERATIONS_ALERT_WEBHOOK_URL).optional(),
  OPERATIONS_ALERT_EMAIL: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((a) => a.trim())
        .filter(Boolean),
    )
    .refine((v) => v.every((a) => z.string().email().safeParse(a).success), "e-mail addresses, comma-separated"),

  SANDBOX_PARTNER_API_KEY: z.string().min(8).default("sandbox-demo-key"),
  /** Lets tests move the server's clock (POST /v1/sandbox/clock); sandbox only, off by default. */
  SANDBOX_CLOCK_CONTROL: flag,
  /** Run the job worker inside the web process (default) or only in `npm run worker`. */
  IN_PROCESS_WORKER: z
    .enum(["true", "false", "1", "0"])
    .default("true")
    .transform((v) => v === "true" || v === "1"),
  WORKER_POLL_MS: millis(250),
  /**
   * After SIGTERM the web process answers /readyz 503, closes kept-alive connections after their
   * response, and exits within this many seconds whatever is still open.
   */
  SHUTDOWN_TIMEOUT_SECONDS: seconds(10),
  /** Jobs one worker runs at once, other than webhook deliveries (decisions: job isolation). */
  JOB_CONCURRENCY: seconds(4),
  /** Of those, at most this many of one kind, so a flood of one kind leaves room for the others. */
  JOB_KIND_CONCURRENCY: seconds(2),
  /**
   * The transfer pipeline's short jobs (fast-check, network and refund steps, expiries) one
   * worker runs at once, on a lane of their own, and of those at most this many of one kind: a
   * burst of submits must not queue two at a time behind the default lane's cap.
   */
  TRANSFER_JOB_CONCURRENCY: seconds(6),
  TRANSFER_JOB_KIND_CONCURRENCY: seconds(4),
  /** Webhook deliveries one worker runs at once, on a lane of their own. */
  WEBHOOK_CONCURRENCY: seconds(8),
  /** Of those, at most this many for one partner, so one slow endpoint cannot take the lane. */
  WEBHOOK_PARTNER_CONCURRENCY: seconds(2),
  /** Hard time limit of one job run; past it the run is aborted and counts as a failed attempt. */
  JOB_TIMEOUT_MS: seconds(30000),
  /** The same for a webhook delivery (its POST has WEBHOOK_TIMEOUT_MS; this bounds the whole run). */
  WEBHOOK_JOB_TIMEOUT_MS: seconds(15000),
  /** A claimed job's lease, renewed by heartbeat while it runs; a dead worker's jobs rerun after it. */
  JOB_LEASE_SECONDS: seconds(10),

  QUOTE_TTL_SECONDS: seconds(60),
  QUOTE_OFFLINE_TTL_SECONDS: seconds(1800),
  TRANSFER_TTL_SECONDS: seconds(7200),
  CHALLENGE_TTL_SECONDS: seconds(600),
  ASSERTION_MAX_AGE_SECONDS: seconds(60),
  LOCKOUT_SECONDS: seconds(900),
  FUNDING_TTL_SECONDS: seconds(1800),
  /**
   * How long a customer who chose bank transfer has to pay: business days of the
   * collection account's calendar (its IBAN's country, COLLECTION_ACCOUNT_TIME_ZONE), not minutes.
   */
  BANK_TRANSFER_FUNDING_BUSINESS_DAYS: z.coerce.number().int().min(1).max(10).default(2),
  /** Declined payments one funding session takes before it closes FAILED (card testing on one URL). */
  FUNDING_MAX_DECLINES: seconds(5),
  KYC_WEBVIEW_TTL_SECONDS: seconds(1800),
  KYC_SESSION_TTL_SECONDS: seconds(86400),
  FAST_CHECK_DELAY_MS: millis(1500),
  SCREENING_DELAY_MS: millis(1000),
  NETWORK_STEP_DELAY_MS: millis(0),

  ACCESS_TOKEN_TTL_SECONDS: seconds(3600),
  REFRESH_TOKEN_TTL_SECONDS: seconds(30 * 86400),
  OTP_TTL_SECONDS: seconds(600),
  OTP_MAX_ATTEMPTS: seconds(5),
  LOGIN_MAX_FAILURES: seconds(5),
  LOGIN_FAILURE_WINDOW_SECONDS: seconds(900),
  LOGIN_ATTEMPT_TTL_SECONDS: seconds(600),
  /** OTP messages per identifier (registration and password reset together) per window. */
  OTP_SEND_MAX_PER_IDENTIFIER: seconds(5),
  OTP_SEND_IDENTIFIER_WINDOW_SECONDS: seconds(3600),
  /** OTP messages per client address and partner per window (default: 30 in production, 10000 in sandbox). */
  OTP_SEND_MAX_PER_ADDRESS: z.coerce.number().int().positive().optional(),
  OTP_SEND_ADDRESS_WINDOW_SECONDS: seconds(3600),
  /** Wrong codes per identifier and purpose per window, across every code issued. */
  OTP_VERIFY_MAX_FAILURES_PER_IDENTIFIER: seconds(15),
  OTP_VERIFY_IDENTIFIER_WINDOW_SECONDS: seconds(3600),
  /** Console sign-in: wrong passwords per operator email, and per client address, per window. */
  CONSOLE_LOGIN_MAX_FAILURES: seconds(5),
  /** Default: 50 in production, 500 in sandbox (the e2e suite signs in from one address). */
  CONSOLE_LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().positive().optional(),
  CONSOLE_LOGIN_FAILURE_WINDOW_SECONDS: seconds(900),
  /**
   * Reverse proxies in front of the app that append to X-Forwarded-For (0: none, clients connect
   * to Next directly). Decides which entry is the client address (docs/decisions.md, throttles).
   */
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  DEVICE_REGISTRATION_TTL_SECONDS: seconds(300),
  IDEMPOTENCY_RETENTION_SECONDS: seconds(86400),
  /** How long an Idempotency-Key claim holds without its heartbeat: a dead request's key is free again after this. */
  IDEMPOTENCY_LOCK_SECONDS: seconds(10),
  WEBHOOK_TIMEOUT_MS: millis(5000),
  /** After a secret rotation the previous secret keeps signing (next to the new one) this long. */
  WEBHOOK_SECRET_ROTATION_WINDOW_SECONDS: seconds(86400),
  /** At most this much of a webhook response body is read; the rest is cancelled unread. */
  WEBHOOK_RESPONSE_MAX_BYTES: seconds(4096),
  /** A Retry-After longer than this (429/503) is honoured only up to it. */
  WEBHOOK_RETRY_AFTER_MAX_SECONDS: seconds(21600),
  /** Events stay readable through GET /v1/core/events this many days (at least 30). */
  EVENT_RETENTION_DAYS: z.coerce.number().int().min(30).default(30),
  /** Largest originAmount a quote may carry, in the origin currency (a business limit per transfer). */
  MAX_ORIGIN_AMOUNT: z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .default("100000"),
  /** Profile acceptance sets (decisions section 4); configuration, with the sandbox defaults. */
  ACCEPTED_RESIDENCE_COUNTRIES: codeList("USA,GBR,FRA,DEU,ESP,ITA,NLD,IRL,CAN,AUS"),
  SANCTIONED_NATIONALITIES: codeList("CUB,IRN,PRK,SYR"),
  REGION_REQUIRED_COUNTRIES: codeList("USA,CAN,AUS"),
  /** Quote-signing keys: JSON array of private RSA JWKs of 2048 bits or more, newest first (sandbox generates one). */
  SERVICE_SIGNING_KEYS: z.string().superRefine(checkedBy(signingKeyProblems)).optional(),
  /** Field-encryption keys "keyId:base64,..." (AES-256: 32 bytes each), the first encrypts (sandbox generates one). */
  FIELD_ENCRYPTION_KEYS: z.string().superRefine(checkedBy(fieldKeyProblems)).optional(),
  /**
   * Dual control (docs/decisions.md "Dual control"): every action of
   * lib/platform/config/controlled-actions.ts waits for a second operator unless named here (comma-separated).
   * A transfer is released by one operator below the threshold (in the currency, converted at the
   * reference rate), unless a screening case holds it.
   */
  DUAL_CONTROL_OFF: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
        .map((s) => RENAMED[s]?.to ?? s),
    )
    .refine((v) => v.every(isControlledAction), `action names from: ${CONTROLLED_ACTIONS.join(", ")}`)
    .refine((v) => !v.some((a) => (ALWAYS_CONTROLLED as readonly string[]).includes(a)), `never off: ${ALWAYS_CONTROLLED.join(", ")}`),
  DUAL_CONTROL_TRANSFER_THRESHOLD: z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .default("3000"),
  DUAL_CONTROL_CURRENCY: z
    .string()
    .default("USD")
    .refine((v) => isCurrencyCode(v), "an ISO 4217 currency code"),
  /** Console sign-in: the first admin (seeded at start when set; sandbox has defaults). */
  OPERATOR_EMAIL: z.string().email().optional(),
  OPERATOR_PASSWORD: z.string().min(12).optional(),
  /**
   * Console second factor: production asks every operator for a TOTP code; in
   * sandbox only when this is set (the seeded sandbox operator is never asked outside production).
   */
  CONSOLE_TOTP_REQUIRED: flag,
  /** Signs console sessions (next-auth); required in production, generated and stored in sandbox. */
  NEXTAUTH_SECRET: z.string().min(32).optional(),
  /** Production refuses http and private addresses for webhook URLs; tests may allow loopback. */
  WEBHOOK_ALLOW_PRIVATE: flag,
  /**
   * Reference rates (docs/decisions.md "Reference rates"). With REFERENCE_RATES_URL
   * (an ECB eurofxref-daily.xml) set, quotes are priced from the published feed; unset, the sandbox's
   * deterministic rates. The secondary source (JSON, rates against one base) fills what the ECB lacks.
   */
  REFERENCE_RATES_URL: url(URL_SCHEMES.REFERENCE_RATES_URL).optional(),
  REFERENCE_RATES_SECONDARY_URL: url(URL_SCHEMES.REFERENCE_RATES_SECONDARY_URL).optional(),
  REFERENCE_RATES_REFRESH_MINUTES: seconds(60),
  /** Rates published longer ago than this refuse new quotes (503 internal.unavailable); 96 h spans a long weekend. */
  REFERENCE_RATE_MAX_AGE_HOURS: seconds(96),
  /** Fixed pegs "CUR:ANCHOR:units-of-CUR-per-ANCHOR,...": they take precedence over every feed. */
  REFERENCE_RATE_PEGS: z
    .string()
    .default("XOF:EUR:655.957")
    .transform((v, ctx) => {
      const pegs: { currency: string; anchor: string; rate: string }[] = [];
      for (const item of v
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean)) {
        const m = /^([A-Z]{3}):([A-Z]{3}):(\d+(?:\.\d+)?)$/.exec(item);
        if (!m || m[1] === m[2] || /^0*(\.0*)?$/.test(m[3])) {
          ctx.addIssue({ code: "custom", message: `not a peg CUR:ANCHOR:rate: ${item}` });
          return z.NEVER;
        }
        pegs.push({ currency: m[1], anchor: m[2], rate: m[3] });
      }
      return pegs;
    }),

  /**
   * The operator's collection account, shown on the funding page for bank transfers:
   * FUNDING_PROVIDER=bank-transfer needs all four; the sandbox has defaults. CURRENCY may list
   * several codes (a multi-currency account), comma-separated.
   */
  COLLECTION_ACCOUNT_IBAN: z
    .string()
    .transform((v) => electronicFormatIBAN(v) ?? "")
    .refine((v) => isValidIBAN(v), "not a valid IBAN")
    .optional(),
  COLLECTION_ACCOUNT_BIC: z
    .string()
    .trim()
    .toUpperCase()
    .refine((v) => isValidBIC(v), "not a valid BIC")
    .optional(),
  COLLECTION_ACCOUNT_NAME: z.string().trim().min(1).max(70).optional(),
  /** The collection account's bank's time zone (IANA): its business days start and end there. */
  COLLECTION_ACCOUNT_TIME_ZONE: z
    .string()
    .trim()
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat("en", { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, "an IANA time zone (Europe/Berlin)")
    .default("UTC"),
  COLLECTION_ACCOUNT_CURRENCY: z
    .string()
    .transform((v) =>
      v
        .split(",")
        .map((c) => c.trim().toUpperCase())
        .filter(Boolean)
        .join(","),
    )
    .refine((v) => v !== "" && v.split(",").every(isCurrencyCode), "ISO 4217 currency codes, comma-separated")
    .optional(),

  /**
   * How short a bank credit may be and still fund its transfer, per currency:
   * "EUR=0.05,GBP=0.05" (amounts in the currency, whole minor units). The shortfall is written off
   * (expense:write-offs). A currency not listed has none: only the exact sum (or more) funds.
   */
  BANK_CREDIT_SHORTFALL_TOLERANCE: z
    .string()
    .default("")
    .transform((v, ctx) => {
      const out: Record<string, string> = {};
      for (const part of v
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean)) {
        const [currency, amount] = part.split("=").map((x) => x.trim().toUpperCase());
        if (!currency || !isCurrencyCode(currency) || !amount || !/^\d+(\.\d+)?$/.test(amount) || !fitsMinorUnit(new Decimal(amount), currency)) {
          ctx.addIssue({ code: "custom", message: `"${part}" is not CURRENCY=amount (ISO 4217 code, amount in whole minor units, e.g. EUR=0.05)` });
          return z.NEVER;
        }
        out[currency] = amount;
      }
      return out;
    }),

  /** Provider choices (lib/platform/providers/table.ts names each setting's implementations and checks them). */
  OTP_EMAIL_PROVIDER: providerName,
  OTP_SMS_PROVIDER: providerName,
  SCREENING_PROVIDER: providerName,
  PEP_SCREENING_PROVIDER: providerName,
  /**
   * Transaction monitoring for partners without a mode of their own: enforce (a review or
   * block outcome acts) or shadow (recorded only). Default: enforce in production, shadow in sandbox.
   */
  MONITORING_DEFAULT_MODE: z.enum(MONITORING_MODES).optional(),
  REFERENCE_RATES_PROVIDER: providerName,
  KYC_DECISION_PROVIDER: providerName,
  /**
   * The face matcher of automatic KYC (lib/identity/kyc/verification/face-match.ts): face-api (the
   * on-device face model), none (a person compares the faces) or sandbox-fingerprint (sandbox only,
   * synthetic drawn faces). Unset: face-api in production, the sandbox one in sandbox.
   */
  KYC_FACE_MATCHER: z.enum(["none", "face-api", "sandbox-fingerprint"]).optional(),
  /** KYC_DECISION_PROVIDER=onfido: the API's base URL (region), its token, and the webhook token that signs its results. */
  ONFIDO_API_URL: url(URL_SCHEMES.ONFIDO_API_URL).optional(),
  ONFIDO_API_TOKEN: z.string().min(8).optional(),
  ONFIDO_WEBHOOK_TOKEN: z.string().min(8).optional(),
  FUNDING_PROVIDER: providerName,
  PAYOUT_PROVIDER: providerName,
  REFUND_PROVIDER: providerName,
  /** Payout files (PAYOUT_PROVIDER=pain001): the banks (lib/platform/config/payout-banks.ts), how often files are made, where they are written. */
  PAYOUT_BANKS: payoutBanksSetting,
  PAYOUT_BATCH_MINUTES: z.coerce.number().positive().default(15),
  PAYOUT_OUTBOX_DIR: z.string().trim().min(1).optional(),
  /** The payout aggregator's API (PAYOUT_PROVIDER=routed): base URL, API key, webhook signing secret, per-call timeout. */
  PAYOUT_AGGREGATOR_PROVIDER: providerName,
  PAYOUT_AGGREGATOR_URL: url(URL_SCHEMES.PAYOUT_AGGREGATOR_URL).optional(),
  PAYOUT_AGGREGATOR_KEY: z.string().min(8).optional(),
  PAYOUT_AGGREGATOR_WEBHOOK_SECRET: z.string().min(16).optional(),
  PAYOUT_AGGREGATOR_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /**
   * Above this amount in ORIGINATOR_DATA_THRESHOLD_CURRENCY (the send amount converted at the
   * reference rate) a payout carries the originator's date of birth, structured address and
   * identifier (FATF Recommendation 16): submit refuses it without them.
   */
  ORIGINATOR_DATA_THRESHOLD: z
    .string()
    .trim()
    .regex(/^(0|[1-9][0-9]*)([.][0-9]+)?$/, "a plain decimal (1000)")
    .default("1000"),
  ORIGINATOR_DATA_THRESHOLD_CURRENCY: z
    .string()
    .default("USD")
    .refine((v) => isCurrencyCode(v), "an ISO 4217 currency code"),
  /**
   * Prefunding alert: a provider's cover (its prefunding balance less what is in flight) under the
   * forecast of this many business days' payouts opens an operations alert.
   */
  PREFUNDING_MIN_COVER_DAYS: z.coerce.number().int().min(1).max(10).default(3),
  /**
   * OTP email (nodemailer's URL): smtp://host:port, smtps://host:port or smtp://host:587?requireTLS=true,
   * user:password@ when the server wants a login (a local relay does not). Production: TLS unless loopback.
   */
  SMTP_URL: z
    .string()
    .superRefine(
      checkedBy((v) => {
        const parsed = parseSmtpUrl(v);
        return typeof parsed === "string" ? [parsed] : [];
      }),
    )
    .optional(),
  OTP_EMAIL_FROM: z.string().min(3).optional(),
  /**
   * The login identifiers the Auth API accepts: email, phone or both. An SMS
   * gateway is needed only when phone numbers are accepted; the others answer auth.identifierInvalid.
   */
  LOGIN_IDENTIFIER_TYPES: z
    .string()
    .default("email,phone")
    .transform((v, ctx) => {
      const types = [...new Set(v.split(",").map((t) => t.trim().toUpperCase()))].filter(Boolean);
      const unknown = types.filter((t) => !(LOGIN_IDENTIFIER_TYPES as readonly string[]).includes(t));
      if (types.length === 0 || unknown.length > 0) {
        ctx.addIssue({ code: "custom", message: `email, phone or email,phone (not ${v || "empty"})` });
        return z.NEVER;
      }
      return types as LoginIdentifierType[];
    }),
  /** OTP SMS: a gateway receiving a Standard Webhooks-signed JSON POST. */
  SMS_WEBHOOK_URL: url(URL_SCHEMES.SMS_WEBHOOK_URL).optional(),
  SMS_WEBHOOK_SECRET: z.string().min(8).optional(),
  /** Comma-separated files or URLs of one OFAC SDN publication (sdn.csv, alt.csv, add.csv); empty: the shipped copy. */
  SANCTIONS_SOURCE_URLS: urlList,
  /** The same for the OFAC consolidated (non-SDN) list (cons_prim.csv, cons_alt.csv, cons_add.csv). */
  SANCTIONS_OFAC_CONSOLIDATED_URLS: urlList,
  /** The same for the UN Security Council Consolidated List (consolidated.xml). */
  SANCTIONS_UN_URLS: urlList,
  /**
   * The OpenSanctions PEP list in its "targets.simple.csv" layout (a file or URL, e.g. the PEP
   * dataset's targets.simple.csv); set, PEP screening uses it (required in production); empty: the
   * sandbox's fixture of made-up people (data/pep/opensanctions-peps).
   */
  PEP_SOURCE_URLS: urlList,
  /** How often the refresh job fetches a list that has URLs set. */
  SANCTIONS_REFRESH_HOURS: z.coerce.number().positive().default(24),
  /**
   * Name scores (0..1) for screening's results (lib/compliance/screening/match-index.ts verdict,
   * docs/screening-quality.md): a HIT needs this name score AND the same date of birth; a
   * CLOSE_MATCH this name score whatever the date of birth; or this lower one with a compatible
   * date of birth (a date of birth may raise, never clear).
   */
  SCREENING_HIT_SCORE: z.coerce.number().min(0).max(1).default(0.93),
  SCREENING_CLOSE_MATCH_SCORE: z.coerce.number().min(0).max(1).default(0.85),
  SCREENING_BIRTH_DATE_MATCH_SCORE: z.coerce.number().min(0).max(1).default(0.7),
});

/** Every setting lib/platform/config reads (README's configuration table names each once: test/unit/docs/readme.test.ts). */
export const SETTINGS: readonly string[] = Object.keys(schema.shape);

export type Config = Omit<
  z.infer<typeof schema>,
  "OTP_SEND_MAX_PER_ADDRESS" | "CONSOLE_LOGIN_MAX_FAILURES_PER_ADDRESS" | "PAYOUT_BANKS" | "MONITORING_DEFAULT_MODE"
> & {
  MONITORING_DEFAULT_MODE: MonitoringMode;
  /** PAYOUT_BANKS, or in sandbox the simulated bank when unset (empty in production when unset). */
  PAYOUT_BANKS: PayoutBank[];
  OTP_SEND_MAX_PER_ADDRESS: number;
  CONSOLE_LOGIN_MAX_FAILURES_PER_ADDRESS: number;
  publicBaseUrl: string;
  sandbox: boolean;
  /** The implementation in use per provider kind (lib/payments/providers). */
  providers: ResolvedProviders;
  /** Where customers send bank transfers (set, or the sandbox's defaults). */
  collectionAccount: CollectionAccount | null;
  /** OpenTelemetry tracing asked for by the standard OTEL_* variables (tracingWanted); off by default. */
  tracing: boolean;
};

/**
 * Whether the standard OpenTelemetry variables ask for traces: an exporter (OTEL_TRACES_EXPORTER
 * other than none) or an OTLP endpoint is named, and OTEL_SDK_DISABLED is not true. The SDK reads
 * the variables themselves (lib/platform/tracing.ts); this only decides whether to load it.
 */
export function tracingWanted(env: Record<string, string | undefined>): boolean {
  if ((env.OTEL_SDK_DISABLED ?? "").trim().toLowerCase() === "true") return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? "")
    .split(",")
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  if (exporters.length > 0) return exporters.some((e) => e !== "none");
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

export interface CollectionAccount {
  iban: string;
  bic: string;
  name: string;
  currencies: string[];
  /** Its calendar: the IBAN's country (holidays) and the bank's time zone. */
  country: string;
  timeZone: string;
}

/** The sandbox's collection account: the ISO 13616 example IBAN, a test BIC. */
const SANDBOX_COLLECTION = { iban: "DE89370400440532013000", bic: "COBADEFFXXX", name: "Remit Sandbox Collections", currency: "EUR,GBP,USD" };

function collectionAccountOf(c: z.infer<typeof schema>, sandbox: boolean): CollectionAccount | null {
  const fallback = sandbox ? SANDBOX_COLLECTION : undefined;
  const iban = c.COLLECTION_ACCOUNT_IBAN ?? fallback?.iban;
  const bic = c.COLLECTION_ACCOUNT_BIC ?? fallback?.bic;
  const name = c.COLLECTION_ACCOUNT_NAME ?? fallback?.name;
  const currency = c.COLLECTION_ACCOUNT_CURRENCY ?? fallback?.currency;
  return iban && bic && name && currency
    ? { iban, bic, name, currencies: currency.split(","), country: iban.slice(0, 2), timeZone: c.COLLECTION_ACCOUNT_TIME_ZONE }
    : null;
}

/**
 * A configuration the process refuses: one line per problem, each naming its setting. The message
 * is "Invalid configuration:" followed by the lines; lib/operations/runtime/startup-check.ts prints them and
 * exits before anything is served.
 */
export class ConfigurationError extends Error {
  readonly lines: string[];
  constructor(lines: string[]) {
    super(`Invalid configuration:\n${lines.join("\n")}`);
    this.name = "ConfigurationError";
    this.lines = lines;
  }
}

/** Production's own refusals (decisions section 1), on the raw settings: they hold whatever else is wrong. */
function productionProblems(env: Record<string, string | undefined>): string[] {
  const lines: string[] = [];
  // The embedded PGlite database is for sandbox and tests: one process, fsync off.
  if (!env.DATABASE_URL)
    lines.push("APP_MODE=production needs DATABASE_URL (postgres://user:password@host:5432/database): the embedded database is for sandbox only");
  if (env.SANDBOX_PARTNER_API_KEY) lines.push("APP_MODE=production refuses SANDBOX_PARTNER_API_KEY");
  if (["true", "1"].includes(env.SANDBOX_CLOCK_CONTROL ?? "")) lines.push("APP_MODE=production refuses SANDBOX_CLOCK_CONTROL");
  // Onfido's sandbox tokens start so: production never verifies customers against the vendor's sandbox.
  if (env.ONFIDO_API_TOKEN?.startsWith("api_sandbox")) lines.push("APP_MODE=production refuses an Onfido sandbox token (ONFIDO_API_TOKEN api_sandbox...)");
  if (env.KYC_FACE_MATCHER === "sandbox-fingerprint") lines.push("APP_MODE=production refuses KYC_FACE_MATCHER=sandbox-fingerprint (sandbox only)");
  // Production keys come from configuration, never from the database.
  for (const name of ["NEXTAUTH_SECRET", "SERVICE_SIGNING_KEYS", "FIELD_ENCRYPTION_KEYS"] as const) {
    if (!env[name]) lines.push(`APP_MODE=production needs ${name} (npm run keys:generate prints it)`);
  }
  return lines;
}

/** Parses and checks a configuration (exported for tests; the app uses config()); throws ConfigurationError. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const production = env.APP_MODE === "production";
  const parsed = schema.safeParse(env);
  // Every problem at once, so one start names all of them: the checks across settings run on the
  // raw settings when some did not parse.
  const lines = parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
  if (production) lines.push(...productionProblems(env));
  if (parsed.success && parsed.data.SCREENING_CLOSE_MATCH_SCORE > parsed.data.SCREENING_HIT_SCORE) {
    lines.push("SCREENING_CLOSE_MATCH_SCORE must not exceed SCREENING_HIT_SCORE");
  }
  if (parsed.success && parsed.data.SCREENING_BIRTH_DATE_MATCH_SCORE > parsed.data.SCREENING_CLOSE_MATCH_SCORE) {
    lines.push("SCREENING_BIRTH_DATE_MATCH_SCORE must not exceed SCREENING_CLOSE_MATCH_SCORE");
  }
  const smtp = env.SMTP_URL ? parseSmtpUrl(env.SMTP_URL) : null;
  if (production && smtp && typeof smtp !== "string") {
    const problem = smtpProductionProblem(smtp);
    if (problem) lines.push(`SMTP_URL: ${problem}`);
  }
  // Every provider set to an implementation that works (in production: a real one). The
  // SMS gateway is needed only while phone numbers are accepted.
  const phones = parsed.success ? parsed.data.LOGIN_IDENTIFIER_TYPES.includes("PHONE") : !/^\s*email\s*$/i.test(env.LOGIN_IDENTIFIER_TYPES ?? "");
  lines.push(...providerProblems(parsed.success ? parsed.data : env, production, unusedProviderKinds(parsed.success ? parsed.data : env, production, phones)));
  if (!parsed.success || lines.length > 0) throw new ConfigurationError(lines);
  const c = parsed.data;
  const sandbox = c.APP_MODE === "sandbox";
  return {
    ...c,
    // Documented sandbox defaults (README); production seeds an admin only when both are set.
    OPERATOR_EMAIL: c.OPERATOR_EMAIL ?? (sandbox ? "admin@example.com" : undefined),
    OPERATOR_PASSWORD: c.OPERATOR_PASSWORD ?? (sandbox ? "sandbox-operator-password" : undefined),
    // Per-address throttles: generous in sandbox, where a test suite registers hundreds of customers from one machine.
    OTP_SEND_MAX_PER_ADDRESS: c.OTP_SEND_MAX_PER_ADDRESS ?? (sandbox ? 10_000 : 30),
    CONSOLE_LOGIN_MAX_FAILURES_PER_ADDRESS: c.CONSOLE_LOGIN_MAX_FAILURES_PER_ADDRESS ?? (sandbox ? 500 : 50),
    PAYOUT_BANKS: c.PAYOUT_BANKS ?? (sandbox ? SANDBOX_PAYOUT_BANKS : []),
    // Sandbox partners' integration tests stay deterministic; production acts.
    MONITORING_DEFAULT_MODE: c.MONITORING_DEFAULT_MODE ?? (sandbox ? "shadow" : "enforce"),
    providers: resolveProviders(c, !sandbox),
    collectionAccount: collectionAccountOf(c, sandbox),
    publicBaseUrl: (c.PUBLIC_BASE_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ""),
    sandbox,
    tracing: tracingWanted(env),
  };
}

const KEY = Symbol.for("remit.config");
type G = typeof globalThis & { [KEY]?: Config };

/** The process configuration, parsed on first use. */
export function config(): Config {
  const g = globalThis as G;
  return (g[KEY] ??= loadConfig(process.env));
}
