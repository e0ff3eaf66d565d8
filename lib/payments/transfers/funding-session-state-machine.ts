/**
 * Funding session lifecycle (FundingSessionStatus is "not shown", spec 2.11 and 3.4). Chosen
 * values OPEN, SUCCEEDED, FAILED, EXPIRED. A declined payment does not end the session: the
 * customer tries another card or method on the same page until the session's 30 minutes are up
 * (docs/decisions.md, "A declined payment keeps the funding session open"). FAILED is the end
 * after FUNDING_MAX_DECLINES declines, a guard against card testing on one URL. Any other end is
 * EXPIRED (30-minute lifetime, or the transfer left funding: cancelled or timed out).
 */
import { defineMachine, NONE } from "@/lib/platform/state-machine/define";
import { FUNDING_SESSION_STATUSES, type FundingSessionStatus } from "@/db/schema/transfers";
export { FUNDING_SESSION_STATUSES, type FundingSessionStatus } from "@/db/schema/transfers";

export const FUNDING_SESSION_TRIGGERS = ["create", "provider.succeeded", "provider.failed", "declines.exhausted", "expired"] as const;
export type FundingSessionTrigger = (typeof FUNDING_SESSION_TRIGGERS)[number];

export const fundingSessionMachine = defineMachine<FundingSessionStatus, FundingSessionTrigger>({
  name: "funding session",
  states: FUNDING_SESSION_STATUSES,
  triggers: FUNDING_SESSION_TRIGGERS,
  // A second outcome for a closed session (sandbox complete twice); 409 like other conflicts.
  refusedCode: "funding.sessionStateInvalid",
  refusals: [{ from: ["EXPIRED"], code: "funding.sessionExpired", message: "The funding session has expired." }],
  transitions: [
    { from: [NONE], trigger: "create", to: "OPEN", notes: "allocated by transfer confirm" },
    { from: ["OPEN"], trigger: "provider.succeeded", to: "SUCCEEDED", notes: "transfer funding.succeeded" },
    { from: ["OPEN"], trigger: "provider.failed", to: "unchanged", notes: "a decline: the same session takes another card or method" },
    { from: ["OPEN"], trigger: "declines.exhausted", to: "FAILED", notes: "the FUNDING_MAX_DECLINES-th decline closes the URL" },
    { from: ["OPEN"], trigger: "expired", to: "EXPIRED", notes: "transfer funding.expired when still funding" },
  ],
});
