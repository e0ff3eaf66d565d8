/**
 * The compliance context's entry: what the other contexts may use of it (.dependency-cruiser.cjs).
 * Imports from other contexts that predate the entry are listed in
 * .dependency-cruiser-known-violations.json and move here as they are touched.
 */
export { RATINGS, reviewThresholdRatio, type Rating } from "./risk-rating/model";
export { rateCustomer, rateRecentSenders } from "./risk-rating/rate-job";
export { currentRating, newOverride, OVERRIDE_COMMAND, overrideProposer, recomputeRating } from "./risk-rating/ratings";
export { requestRating } from "./risk-rating/request";
export { matchingForm } from "./screening/names";
