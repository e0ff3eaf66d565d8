/**
 * Refresh-token family members (decisions 3): each refresh token is active until used; using it
 * rotates it (a successor is issued active); presenting a rotated token is reuse and revokes the
 * whole family (401 auth.tokenRevoked). Logout, reuse detection and password reset revoke.
 * The 30-day lifetime is a time check on the record, not a state.
 */
import { defineMachine, NONE } from "@/lib/platform/state-machine/define";
import { TOKEN_STATES, type TokenState } from "@/db/schema/sessions";
export { TOKEN_STATES, type TokenState } from "@/db/schema/sessions";

export const TOKEN_TRIGGERS = ["issued", "refresh", "logout", "reuse.detected", "password.reset"] as const;
export type TokenTrigger = (typeof TOKEN_TRIGGERS)[number];

export const tokenMachine = defineMachine<TokenState, TokenTrigger>({
  name: "refresh token",
  states: TOKEN_STATES,
  triggers: TOKEN_TRIGGERS,
  refusedCode: "auth.tokenInvalid",
  refusals: [{ from: ["revoked"], trigger: "refresh", code: "auth.tokenRevoked", message: "The session has ended; log in again." }],
  transitions: [
    { from: [NONE], trigger: "issued", to: "active", notes: "login, set-password or a rotation's successor" },
    { from: ["active"], trigger: "refresh", to: "rotated", reasonCode: "ROTATED", notes: "issue the successor" },
    // Reuse: the caller revokes every member (reuse.detected) and answers 401 auth.tokenRevoked,
    // keeping the revocation (keepChanges).
    { from: ["rotated"], trigger: "refresh", to: "revoked", reasonCode: "REUSE_DETECTED", outcome: "REUSE_DETECTED" },
    // Revocations sweep a whole family; members already revoked stay as they are.
    { from: ["active", "rotated"], trigger: "logout", to: "revoked", reasonCode: "LOGOUT" },
    { from: ["active", "rotated"], trigger: "reuse.detected", to: "revoked", reasonCode: "REUSE_DETECTED" },
    { from: ["active", "rotated"], trigger: "password.reset", to: "revoked", reasonCode: "PASSWORD_RESET" },
    { from: ["revoked"], trigger: "logout", to: "unchanged" },
    { from: ["revoked"], trigger: "reuse.detected", to: "unchanged" },
    { from: ["revoked"], trigger: "password.reset", to: "unchanged" },
  ],
});
