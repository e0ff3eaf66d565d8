/** Dual-control proposal machine: expected data literal on purpose. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { proposalMachine } from "@/lib/operations/dual-control/state-machine";
import { checkExhaustively } from "./exhaustive";

test("proposal: every (state, trigger) cell; a decided or lapsed proposal is final", () => {
  const cells = checkExhaustively(proposalMachine, {
    states: ["PROPOSED", "APPROVED", "DECLINED", "LAPSED"],
    triggers: ["operator.propose", "operator.approve", "operator.decline", "clock.lapse"],
    moves: [
      { from: "none", trigger: "operator.propose", to: "PROPOSED" },
      { from: "PROPOSED", trigger: "operator.approve", to: "APPROVED" },
      { from: "PROPOSED", trigger: "operator.decline", to: "DECLINED" },
      { from: "PROPOSED", trigger: "clock.lapse", to: "LAPSED" },
    ],
    refusal: () => ({ code: "proposal.stateInvalid", status: 409 }),
  });
  assert.equal(cells, 5 * 4);
});
