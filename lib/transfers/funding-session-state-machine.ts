/**
 * Funding session lifecycle (FundingSessionStatus is "not shown", spec 2.11 and 3.4). Chosen
 * values OPEN, SUCCEEDED, FAILED, EXPIRED: SUCCEEDED and FAILED are the sandbox outcomes of
 * decisions 7. A session is single use (spec 2.8): any end other than SUCCEEDED or FAILED is
 * EXPIRED (30-minute lifetime, or the transfer left funding: cancelled or timed out).
 */
import { defineMachine, NONE } from "@/lib/state-machine/define";

export const FUNDING_SESSION_STATUSES = ["OPEN", "SUCCEEDED", "FAILED", "EXPIRED"] as const;
export type FundingSessionStatus = (typeof FUNDING_SESSION_STATUSES)[number];

export const FUNDING_SESSION_TRIGGERS = ["create", "provider.succeeded", "provider.failed", "expired"] as const;
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
    { from: ["OPEN"], trigger: "provider.failed", to: "FAILED", notes: "transfer funding.failed" },
    { from: ["OPEN"], trigger: "expired", to: "EXPIRED", notes: "transfer funding.expired when still funding" },
  ],
});
