/** Claim refund machine (docs/decisions.md "Claim refunds"): expected data literal on purpose. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { claimRefundMachine } from "@/lib/payments/claims/refund-state-machine";
import { checkExhaustively } from "./exhaustive";

test("claim refund: every (state, trigger) cell; owed once, paid once", () => {
  const cells = checkExhaustively(claimRefundMachine, {
    states: ["OWED", "PAID"],
    triggers: ["claim.resolvedRefund", "operator.paid"],
    moves: [
      { from: "none", trigger: "claim.resolvedRefund", to: "OWED" },
      { from: "OWED", trigger: "operator.paid", to: "PAID" },
    ],
    refusal: () => ({ code: "refund.stateInvalid", status: 409 }),
  });
  assert.equal(cells, 3 * 2);
});
