/** Payout attempt machine (docs/decisions.md "Bank money as it arrives; payouts that can be repaired"): expected data literal on purpose. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { payoutAttemptMachine } from "@/lib/payments/payouts/payout-attempt-state-machine";
import { checkExhaustively, moves } from "./exhaustive";

test("payout attempt: every (state, trigger) cell", () => {
  const cells = checkExhaustively(payoutAttemptMachine, {
    states: ["SENT", "REJECTED", "REPAIRED", "RESENT", "ABANDONED", "RETURNED"],
    triggers: ["file.generated", "bank.rejected", "destination.repaired", "file.resent", "operator.refunded", "bank.returned", "route.failedOver"],
    moves: [
      { from: "none", trigger: "file.generated", to: "SENT" },
      { from: "SENT", trigger: "bank.rejected", to: "REJECTED" },
      ...moves(["REJECTED", "REPAIRED"], "destination.repaired", "REPAIRED"),
      { from: "REPAIRED", trigger: "file.resent", to: "RESENT" },
      ...moves(["REJECTED", "REPAIRED"], "operator.refunded", "ABANDONED"),
      { from: "SENT", trigger: "bank.returned", to: "RETURNED" },
      { from: "SENT", trigger: "route.failedOver", to: "ABANDONED" },
    ],
    refusal: () => ({ code: "transfer.stateInvalid", status: 409 }),
  });
  assert.equal(cells, 7 * 7, "six states and none, seven triggers");
});
