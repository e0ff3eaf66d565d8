import { index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";
import type { Language } from "@/lib/platform/i18n/language";

/** CustomerStatus: the states its machine moves (`lib/identity/customers/status-machine.ts`). */
export const CUSTOMER_STATUSES = ["PENDING", "VALID", "MONITORED", "RESTRICTED", "BLOCKED", "CLOSED"] as const;

export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];

/** A customer's KYC status (customers.kyc_status). */
export const KYC_STATUSES = ["NOT_STARTED", "IN_PROGRESS", "COMPLETED", "REJECTED", "REMEDIATION_REQUIRED"] as const;

export type KycStatus = (typeof KYC_STATUSES)[number];

/** VerificationTier (its rules: `lib/payments/limits/tiers.ts`). */
export const VERIFICATION_TIERS = [1, 2] as const;

export type VerificationTier = (typeof VERIFICATION_TIERS)[number];
/** The highest verification tier (lib/payments/limits/tiers.ts). */
export const TOP_TIER: VerificationTier = 2;

/** The person, shared across partners (spec 2.2); statuses of spec 2.9. */
export const customers = pgTable(
  "customers",
  {
    id: text("id").primaryKey(),
    status: text("status").$type<CustomerStatus>().notNull().default("PENDING"),
    kycStatus: text("kyc_status").$type<KycStatus>().notNull().default("NOT_STARTED"),
    /** Verification tier: 1 with KYC, 2 once source-of-funds evidence was approved (ENHANCED KYC). */
    verificationTier: integer("verification_tier").$type<VerificationTier>().notNull().default(1),
    /** Free-text hint shown as statusOperationalHint; null when none. */
    statusOperationalHint: text("status_operational_hint"),
    remediationHint: text("remediation_hint"),
    /** The submitted profile (ProfileSubmitRequest), echoed by the profile read. */
    profile: jsonb("profile").$type<Record<string, unknown>>(),
    /** Normalised first name, last name, date of birth and nationality (decisions section 4). */
    identityKey: text("identity_key"),
    preferredLanguage: text("preferred_language").$type<Language>(),
    /** Latest sanctions screening result: CLEAR, CLOSE_MATCH or HIT (null before the first run). */
    screeningResult: text("screening_result"),
    /**
     * Identity resolution (decisions section 4): another customer record with the same normalised
     * identity. A link, never a merge: see docs/decisions.md.
     */
    linkedCustomerId: text("linked_customer_id"),
    /** The residence address in its normal form (lib/identity/identifiers/normal-form.ts addressKey): how addresses are compared. */
    addressKey: text("address_key"),
    createdAt: createdAt(),
    updatedAt: tstz("updated_at").notNull(),
  },
  // Identity resolution looks a submitted profile up by its key.
  // Monitoring: customers sharing an address (its normal form).
  (t) => [index("customers_identity_key_idx").on(t.identityKey), index("customers_address_key_idx").on(t.addressKey)],
);
