/**
 * The payments context's entry: what the other contexts may use of it (.dependency-cruiser.cjs).
 * Imports from other contexts that predate the entry are listed in
 * .dependency-cruiser-known-violations.json and move here as they are touched.
 */
export { corridorByCode } from "./corridors/corridors";
// Configuration versions (corridors and prices as data): what the configuration command proposes and writes.
export { checkDocument } from "./corridors/changes";
export { describeProposedVersion } from "./corridors/proposed-version";
export { insertVersion } from "./corridors/versions";
// The payee verification job, registered by the runtime.
export { verifyPayeeJob } from "./payouts/payee-verification";
// The payouts no provider is left for, read by the operations alert payout.noRoute.
export { payoutsWithoutRoute, type PayoutWithoutRoute } from "./payouts/without-route";
// The provider statements set against our prefunding: imported by the command prefundingStatement.import, read by the alert prefunding.statementDifference.
export { importPrefundingStatement, latestPrefundingStatements, type StatementComparison } from "./payouts/prefunding-statement";
