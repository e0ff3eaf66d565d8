/** Payout provider attempt machine (docs/decisions.md "Routed payouts"): expected data literal on purpose. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { providerAttemptMachine } from "@/lib/payments/payouts/provider-attempt-state-machine";
import { checkExhaustively, moves } from "./exhaustive";

test("payout provider attempt: every (state, trigger) cell", () => {
  const cells = checkExhaustively(providerAttemptMachine, {
    states: [
      "WAITING_COVER",
      "QUEUED",
      "SUBMITTED",
      "PAID",
      "FAILED",
      "REJECTED",
      "REPAIRED",
      "ABANDONED",
      "LATE_PAID",
      "REVERSED",
      "RETURNED",
      "RETURN_REFUNDED",
    ],
    triggers: [
      "route.chosen",
      "route.noCover",
      "cover.toppedUp",
      "provider.accepted",
      "provider.paid",
      "provider.failed",
      "provider.rejected",
      "destination.repaired",
      "transfer.left",
      "provider.paidLate",
      "provider.reversed",
      "provider.returned",
      "operator.refunded",
    ],
    moves: [
      { from: "none", trigger: "route.chosen", to: "QUEUED" },
      { from: "none", trigger: "route.noCover", to: "WAITING_COVER" },
      { from: "WAITING_COVER", trigger: "cover.toppedUp", to: "QUEUED" },
      { from: "QUEUED", trigger: "provider.accepted", to: "SUBMITTED" },
      ...moves(["QUEUED", "SUBMITTED"], "provider.paid", "PAID"),
      ...moves(["QUEUED", "SUBMITTED"], "provider.failed", "FAILED"),
      ...moves(["QUEUED", "SUBMITTED"], "provider.rejected", "REJECTED"),
      { from: "REJECTED", trigger: "destination.repaired", to: "REPAIRED" },
      ...moves(["WAITING_COVER", "QUEUED", "REJECTED"], "transfer.left", "ABANDONED"),
      ...moves(["FAILED", "ABANDONED"], "provider.paidLate", "LATE_PAID"),
      ...moves(["LATE_PAID"], "provider.reversed", "REVERSED"),
      { from: "PAID", trigger: "provider.returned", to: "RETURNED" },
      { from: "RETURNED", trigger: "operator.refunded", to: "RETURN_REFUNDED" },
    ],
    refusal: () => ({ code: "transfer.stateInvalid", status: 409 }),
  });
  assert.equal(cells, 13 * 13, "twelve states and none, thirteen triggers");
});
