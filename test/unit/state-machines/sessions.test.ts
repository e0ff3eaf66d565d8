/** KYC session, funding session, refund and refresh-token machines (expected data literal). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { kycSessionMachine } from "@/lib/identity/kyc/session-state-machine";
import { fundingSessionMachine } from "@/lib/payments/transfers/funding-session-state-machine";
import { refundMachine } from "@/lib/payments/transfers/refund-state-machine";
import { tokenMachine } from "@/lib/identity/auth/session-state-machine";
import { checkExhaustively, moves } from "./exhaustive";

test("KYC session: every cell (decisions 4 states)", () => {
  const cells = checkExhaustively(kycSessionMachine, {
    states: ["CREATED", "IN_PROGRESS", "COMPLETED", "EXPIRED", "FAILED"],
    triggers: ["create", "opened", "completed", "failed", "expired"],
    moves: [
      { from: "none", trigger: "create", to: "CREATED" },
      { from: "CREATED", trigger: "opened", to: "IN_PROGRESS" },
      { from: "IN_PROGRESS", trigger: "opened", to: "IN_PROGRESS" },
      ...moves(["CREATED", "IN_PROGRESS"], "completed", "COMPLETED"),
      ...moves(["CREATED", "IN_PROGRESS"], "failed", "FAILED"),
      ...moves(["CREATED", "IN_PROGRESS"], "expired", "EXPIRED"),
    ],
    refusal: (from) => (from === "EXPIRED" ? { code: "kyc.sessionExpired", status: 410 } : { code: "kyc.sessionStateInvalid", status: 409 }),
  });
  assert.equal(cells, 6 * 5);
});

test("funding session: every cell", () => {
  const cells = checkExhaustively(fundingSessionMachine, {
    states: ["OPEN", "SUCCEEDED", "FAILED", "EXPIRED"],
    triggers: ["create", "provider.succeeded", "provider.failed", "declines.exhausted", "expired"],
    moves: [
      { from: "none", trigger: "create", to: "OPEN" },
      { from: "OPEN", trigger: "provider.succeeded", to: "SUCCEEDED" },
      // A decline keeps the session open for another card or method.
      { from: "OPEN", trigger: "provider.failed", to: "OPEN" },
      { from: "OPEN", trigger: "declines.exhausted", to: "FAILED" },
      { from: "OPEN", trigger: "expired", to: "EXPIRED" },
    ],
    refusal: (from) => (from === "EXPIRED" ? { code: "funding.sessionExpired", status: 410 } : { code: "funding.sessionStateInvalid", status: 409 }),
  });
  assert.equal(cells, 5 * 5);
});

test("refund: every cell (decisions 7 RefundStatus)", () => {
  const cells = checkExhaustively(refundMachine, {
    states: ["PENDING", "PROCESSING", "COMPLETED", "FAILED"],
    triggers: ["create", "provider.submitted", "provider.succeeded", "provider.failed", "operator.retry", "operator.paid", "operator.failed"],
    moves: [
      { from: "none", trigger: "create", to: "PENDING" },
      { from: "PENDING", trigger: "provider.submitted", to: "PROCESSING" },
      { from: "PROCESSING", trigger: "provider.succeeded", to: "COMPLETED" },
      ...moves(["PENDING", "PROCESSING"], "provider.failed", "FAILED"),
      { from: "FAILED", trigger: "operator.retry", to: "PENDING" },
      ...moves(["PENDING", "PROCESSING"], "operator.paid", "COMPLETED"),
      ...moves(["PENDING", "PROCESSING"], "operator.failed", "FAILED"),
    ],
    refusal: () => ({ code: "refund.stateInvalid", status: 409 }),
  });
  assert.equal(cells, 5 * 7);
});

test("refresh token: every cell (decisions 3 rotation and reuse)", () => {
  const cells = checkExhaustively(tokenMachine, {
    states: ["active", "rotated", "revoked"],
    triggers: ["issued", "refresh", "logout", "reuse.detected", "password.reset"],
    moves: [
      { from: "none", trigger: "issued", to: "active" },
      { from: "active", trigger: "refresh", to: "rotated", reasonCode: "ROTATED" },
      { from: "rotated", trigger: "refresh", to: "revoked", reasonCode: "REUSE_DETECTED", outcome: "REUSE_DETECTED" },
      ...moves(["active", "rotated"], "logout", "revoked", { reasonCode: "LOGOUT" }),
      ...moves(["active", "rotated"], "reuse.detected", "revoked", { reasonCode: "REUSE_DETECTED" }),
      ...moves(["active", "rotated"], "password.reset", "revoked", { reasonCode: "PASSWORD_RESET" }),
      { from: "revoked", trigger: "logout", to: "revoked" },
      { from: "revoked", trigger: "reuse.detected", to: "revoked" },
      { from: "revoked", trigger: "password.reset", to: "revoked" },
    ],
    refusal: (from, trigger) =>
      from === "revoked" && trigger === "refresh" ? { code: "auth.tokenRevoked", status: 401 } : { code: "auth.tokenInvalid", status: 401 },
  });
  assert.equal(cells, 4 * 5);
});
