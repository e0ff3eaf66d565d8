import { bigint, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";
import type { JWK } from "jose";
import type { VerificationTier } from "./customers";
import type { MonitoringMode } from "./monitoring";

/** Rolling windows as ISO 8601 durations, shortest first, with their length in days. */
export const LIMIT_WINDOWS = ["P1D", "P30D", "P180D"] as const;

export type LimitWindow = (typeof LIMIT_WINDOWS)[number];

/** A limit per window, as a decimal string in the partner's limit currency. */
export type WindowLimits = Record<LimitWindow, string>;

/** The limits of every tier (the partners.tier_limits column). */
export type TierLimits = Record<`${VerificationTier}`, WindowLimits>;

/** Name, phone, website and regulator, each shown as written. */
export interface ProviderContact {
  name: string;
  phone: string;
  website: string;
  regulator: string;
}

/** A partner fintech integrating the APIs (decisions section 2). */
export const partners = pgTable("partners", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** SERVICE_PRICED or PARTNER_SIGNED (decisions section 6). */
  pricingMode: text("pricing_mode").notNull().default("SERVICE_PRICED"),
  /** JWKS for partner-signed quotes: { keys: [...] }. */
  jwks: jsonb("jwks").$type<{ keys: JWK[] }>().notNull().default({ keys: [] }),
  webhookUrl: text("webhook_url"),
  /** Standard Webhooks secret (whsec_...). Shown to the partner, so stored as is. */
  webhookSecret: text("webhook_secret"),
  /**
   * The secret before the last rotation, still signed with until its expiry (decisions: webhook
   * secret rotation) so deliveries in flight and receivers not yet updated keep verifying.
   */
  webhookPreviousSecret: text("webhook_previous_secret"),
  webhookPreviousSecretExpiresAt: tstz("webhook_previous_secret_expires_at"),
  /** Set when the endpoint answered 410 Gone: nothing is sent until an operator re-enables it. */
  webhookDisabledAt: tstz("webhook_disabled_at"),
  webhookDisabledReason: text("webhook_disabled_reason"),
  /** The endpoint's Retry-After (429/503): no delivery to it before this time. */
  webhookNotBefore: tstz("webhook_not_before"),
  /** Origins allowed to embed the hosted webviews and to receive their postMessage. */
  returnOrigins: jsonb("return_origins").$type<string[]>().notNull().default([]),
  /** URL scheme for deep links back into the partner app, e.g. "partnerapp://". */
  deepLinkBase: text("deep_link_base"),
  /** Highest partner_quote_seq accepted so far (spec 5.4: strictly increasing). */
  highestQuoteSeq: bigint("highest_quote_seq", { mode: "number" }).notNull().default(0),
  /** Transaction monitoring: enforce or shadow; null follows MONITORING_DEFAULT_MODE. */
  monitoringMode: text("monitoring_mode").$type<MonitoringMode>(),
  /** This partner's values for the active rule set's parameters (names checked against the set). */
  monitoringParameters: jsonb("monitoring_parameters").$type<Record<string, string>>().notNull().default({}),
  /**
   * The provider's contact the disclosure and the receipt state (Regulation E
   * 1005.31(b)(2)(vi)): who the customer calls, and the regulator they may complain to.
   */
  providerContact: jsonb("provider_contact").$type<ProviderContact>(),
  /** Currency the rolling limits are kept in; transfers count converted into it. */
  limitCurrency: text("limit_currency").notNull().default("USD"),
  /** The partner's limits per tier and window; null means the shipped defaults (lib/payments/limits/tiers.ts). */
  tierLimits: jsonb("tier_limits").$type<TierLimits>(),
  createdAt: createdAt(),
  updatedAt: tstz("updated_at").notNull(),
});
