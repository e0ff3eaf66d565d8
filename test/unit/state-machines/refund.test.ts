/** Refund machine (decisions 7): expected data literal on purpose. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { refundMachine } from "@/lib/payments/transfers/refund-state-machine";
import { checkExhaustively, moves } from "./exhaustive";

test("refund: every (state, trigger) cell", () => {
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
