/**
 * KYC session lifecycle (decisions 4: KycSessionState CREATED, IN_PROGRESS, COMPLETED, EXPIRED,
 * FAILED; transitions are "not shown" in spec 3.4). The session carries lifecycle only: an
 * APPROVED, REJECTED or REMEDIATION_REQUIRED verdict all end the session COMPLETED, and the verdict
 * lands on kycStatus and the customer status (spec 2.3). FAILED is a capture that could not finish
 * (provider or technical failure), EXPIRED the 24-hour absolute lifetime (spec 8).
 */
import { defineMachine, NONE } from "@/lib/platform/state-machine/define";
import { KYC_SESSION_STATES, type KycSessionState } from "@/db/schema/kyc-sessions";
export { KYC_SESSION_STATES, type KycSessionState } from "@/db/schema/kyc-sessions";

export const KYC_SESSION_TRIGGERS = ["create", "opened", "completed", "failed", "expired"] as const;
export type KycSessionTrigger = (typeof KYC_SESSION_TRIGGERS)[number];

export const kycSessionMachine = defineMachine<KycSessionState, KycSessionTrigger>({
  name: "KYC session",
  states: KYC_SESSION_STATES,
  triggers: KYC_SESSION_TRIGGERS,
  // Internal misuse (a second verdict on a closed session); 409 like other state conflicts.
  refusedCode: "kyc.sessionStateInvalid",
  refusals: [{ from: ["EXPIRED"], code: "kyc.sessionExpired", message: "The KYC session has expired." }],
  transitions: [
    { from: [NONE], trigger: "create", to: "CREATED", notes: "POST /kyc-sessions" },
    { from: ["CREATED"], trigger: "opened", to: "IN_PROGRESS", notes: "webview opened; openedAt set" },
    // Reopening the webview of a session in progress resumes it (spec 2.3 purpose "resume").
    { from: ["IN_PROGRESS"], trigger: "opened", to: "unchanged" },
    // From CREATED too: a verdict may arrive without an observed page open (sandbox complete,
    // decisions 4, does what the hosted page's buttons do).
    { from: ["CREATED", "IN_PROGRESS"], trigger: "completed", to: "COMPLETED", notes: "closedAt set" },
    { from: ["CREATED", "IN_PROGRESS"], trigger: "failed", to: "FAILED", notes: "closedAt set" },
    { from: ["CREATED", "IN_PROGRESS"], trigger: "expired", to: "EXPIRED", notes: "24 h lifetime elapsed" },
  ],
});
