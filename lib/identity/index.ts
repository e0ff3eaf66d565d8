/**
 * The identity context's entry: what the other contexts may use of it (.dependency-cruiser.cjs).
 * Imports from other contexts that predate the entry are listed in
 * .dependency-cruiser-known-violations.json and move here as they are touched.
 */
export { verifyKycSession } from "./kyc/verification/service";
export { decideKycReview, KYC_REVIEW_DECISIONS, type KycReviewDecision } from "./kyc/review";
export { purgeKycPhotos } from "./kyc/photo-retention";
