/** Error claim machine (docs/decisions.md "Consumer protection"): expected data literal on purpose. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { claimMachine } from "@/lib/payments/claims/state-machine";
import { checkExhaustively } from "./exhaustive";

test("claim: every (state, trigger) cell; a resolved claim is final", () => {
  const cells = checkExhaustively(claimMachine, {
    states: ["OPEN", "INVESTIGATING", "RESOLVED"],
    triggers: ["customer.report", "operator.investigate", "operator.resolve"],
    moves: [
      { from: "none", trigger: "customer.report", to: "OPEN" },
      { from: "OPEN", trigger: "operator.investigate", to: "INVESTIGATING" },
      { from: "OPEN", trigger: "operator.resolve", to: "RESOLVED" },
      { from: "INVESTIGATING", trigger: "operator.resolve", to: "RESOLVED" },
    ],
    refusal: () => ({ code: "claim.stateInvalid", status: 409 }),
  });
  assert.equal(cells, 4 * 3);
});
