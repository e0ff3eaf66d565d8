/**
 * The KYC value lists of spec 2.2, 2.3 and 2.9, declared once beside their columns
 * (customers.kyc_status, kyc_sessions.outcome and purpose in db/schema): the domain and the API
 * contracts take them from here.
 */
export { KYC_OUTCOMES, type KycOutcome, KYC_SESSION_PURPOSES, type KycSessionPurpose } from "@/db/schema/kyc-sessions";

export { KYC_STATUSES, type KycStatus } from "@/db/schema/customers";
