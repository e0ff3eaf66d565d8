/** Subscription (partner-customer relationship, spec 3.5) and device (spec 5.3) machines (expected data literal). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { deviceMachine } from "@/lib/identity/devices/status-machine";
import { subscriptionMachine } from "@/lib/partners/subscription-status-machine";
import { checkExhaustively, type ExpectedMove } from "./exhaustive";

const SUBSCRIPTION_STATES = ["active", "spended", "closed"];

test("subscription: every (status, trigger) cell; a closed relationship never reopens", () => {
  const moves: ExpectedMove[] = [
    { from: "none", trigger: "open", to: "active" },
    ...["active", "spended"].flatMap((from) => SUBSCRIPTION_STATES.map((target) => ({ from, trigger: "partner.setStatus", target, to: target }))),
  ];
  const cells = checkExhaustively(subscriptionMachine, {
    states: SUBSCRIPTION_STATES,
    triggers: ["open", "partner.setStatus"],
    moves,
    refusal: () => ({ code: "customer.statusInvalid", status: 409 }),
    contexts: (_from, trigger) => (trigger === "partner.setStatus" ? SUBSCRIPTION_STATES.map((target) => ({ target })) : [{}]),
  });
  assert.equal(cells, 4 * (1 + 3));
  assert.throws(() => subscriptionMachine.next("closed", "partner.setStatus", { target: "active" }), /A closed subscription cannot be reopened/);
});

test("device: every (status, trigger) cell; deactivation is idempotent", () => {
  const cells = checkExhaustively(deviceMachine, {
    states: ["ACTIVE", "DEACTIVATED"],
    triggers: ["register", "deactivate"],
    moves: [
      { from: "none", trigger: "register", to: "ACTIVE" },
      { from: "ACTIVE", trigger: "deactivate", to: "DEACTIVATED" },
      { from: "DEACTIVATED", trigger: "deactivate", to: "DEACTIVATED" },
    ],
    refusal: () => ({ code: "device.deactivated", status: 412 }),
  });
  assert.equal(cells, 3 * 2);
});
