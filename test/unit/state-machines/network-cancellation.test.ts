/** Network cancellation machine (spec 3.1, 2.9): expected data literal on purpose. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { NETWORK_CANCELLATION_OUTCOME, networkCancellationMachine } from "@/lib/payments/transfers/network-cancellation-state-machine";
import { checkExhaustively } from "./exhaustive";

test("network cancellation: every (state, trigger) cell", () => {
  const cells = checkExhaustively(networkCancellationMachine, {
    states: ["PENDING", "SUCCEEDED", "ALREADY_PAID", "RETRY_ALLOWED"],
    triggers: ["customer.requested", "network.succeeded", "network.alreadyPaid", "network.retryAllowed"],
    moves: [
      { from: "none", trigger: "customer.requested", to: "PENDING", outcome: "NETWORK_CANCELLATION_PENDING" },
      { from: "PENDING", trigger: "network.succeeded", to: "SUCCEEDED", outcome: "NETWORK_CANCELLATION_SUCCESS" },
      { from: "PENDING", trigger: "network.alreadyPaid", to: "ALREADY_PAID", outcome: "NETWORK_ALREADY_PAID" },
      { from: "PENDING", trigger: "network.retryAllowed", to: "RETRY_ALLOWED", outcome: "NETWORK_IN_PROGRESS_RETRY_ALLOWED" },
    ],
    refusal: () => ({ code: "transfer.stateInvalid", status: 409 }),
  });
  assert.equal(cells, 5 * 4);
});

test("network cancellation: each state shows the CancellationOutcome of spec 2.9", () => {
  assert.deepEqual(NETWORK_CANCELLATION_OUTCOME, {
    PENDING: "NETWORK_CANCELLATION_PENDING",
    SUCCEEDED: "NETWORK_CANCELLATION_SUCCESS",
    ALREADY_PAID: "NETWORK_ALREADY_PAID",
    RETRY_ALLOWED: "NETWORK_IN_PROGRESS_RETRY_ALLOWED",
  });
});
