/**
 * What kyc_sessions.verification holds, declared beside the column (db/schema/kyc-sessions.ts).
 */
export { type KycVerificationRecord } from "@/db/schema/kyc-sessions";
