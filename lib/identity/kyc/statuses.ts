/**
 * The KYC value lists of spec 2.2, 2.3 and 2.9, once: the database columns, the domain and the
 * API contracts all take them from here.
 */

/** A customer's KYC status (customers.kyc_status). */
export const KYC_STATUSES = ["NOT_STARTED", "IN_PROGRESS", "COMPLETED", "REJECTED", "REMEDIATION_REQUIRED"] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];

/** A provider's verdict on a KYC session (sandbox endpoint and hosted page). */
export const KYC_OUTCOMES = ["APPROVED", "REJECTED", "REMEDIATION_REQUIRED"] as const;
export type KycOutcome = (typeof KYC_OUTCOMES)[number];

/**
 * Why a KYC session was opened: chosen by the service from the KYC status (spec 2.3). ENHANCED
 * (ours) is the step-up of a tier-1 customer whose KYC is COMPLETED: source-of-funds
 * evidence, whose approval moves the customer to tier 2.
 */
export const KYC_SESSION_PURPOSES = ["NEW", "RESUME", "RESUBMISSION", "ENHANCED"] as const;
export type KycSessionPurpose = (typeof KYC_SESSION_PURPOSES)[number];
