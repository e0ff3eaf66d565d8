/**
 * Verification tiers and their rolling limits. The tiers and the limits' shape are declared beside
 * their columns (customers.verification_tier, partners.tier_limits in db/schema).
 *
 * Tier 1 is a customer whose KYC is COMPLETED; tier 2 one whose source-of-funds evidence (an
 * ENHANCED KYC session) an operator approved. Each tier has a limit per rolling window, from the
 * configuration version in force (lib/payments/corridors/versions.ts: "tierLimits"); a partner may
 * replace them with its own (console, Partners page). Either is counted in the partner's limit currency.
 */
import { type VerificationTier } from "@/db/schema/customers";
import { type LimitWindow, type TierLimits } from "@/db/schema/partners";

export { LIMIT_WINDOWS, type LimitWindow, type WindowLimits, type TierLimits } from "@/db/schema/partners";

export { TOP_TIER, VERIFICATION_TIERS, type VerificationTier } from "@/db/schema/customers";

export const WINDOW_DAYS: Record<LimitWindow, number> = { P1D: 1, P30D: 30, P180D: 180 };

/**
 * The shipped limits (Remitly's first tier; a second one after source-of-funds evidence): what
 * configuration version 1 is seeded with. Read the version in force, not this.
 */
export const SEED_TIER_LIMITS: TierLimits = {
  "1": { P1D: "2999", P30D: "10000", P180D: "18000" },
  "2": { P1D: "10000", P30D: "25000", P180D: "60000" },
};
export const DEFAULT_LIMIT_CURRENCY = "USD";

/** What moves a customer to the next tier (GET /v1/core/limits nextTier.requires). */
export const TIER_REQUIREMENTS = ["SOURCE_OF_FUNDS"] as const;
export type TierRequirement = (typeof TIER_REQUIREMENTS)[number];

export function nextTierOf(tier: VerificationTier): { tier: VerificationTier; requires: TierRequirement[] } | null {
  return tier === 1 ? { tier: 2, requires: ["SOURCE_OF_FUNDS"] } : null;
}

/** The partner's limits, or `configured` (the configuration version's) when it has none of its own. */
export function tierLimitsOf(partner: { tierLimits: TierLimits | null }, configured: TierLimits): TierLimits {
  return partner.tierLimits ?? configured;
}
