/** Rule set machine (docs/decisions.md "Transaction monitoring"): expected data literal on purpose. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ruleSetMachine } from "@/lib/compliance/monitoring/state-machine";
import { checkExhaustively, moves } from "./exhaustive";

test("rule set: every (state, trigger) cell; only a proposal (or its shadow run) is activated, and activation retires the live set", () => {
  const cells = checkExhaustively(ruleSetMachine, {
    states: ["draft", "proposed", "shadowing", "active", "retired"],
    triggers: [
      "operator.draft",
      "system.install",
      "operator.edit",
      "operator.propose",
      "operator.shadow",
      "operator.activate",
      "superseded",
      "operator.withdraw",
    ],
    moves: [
      { from: "none", trigger: "operator.draft", to: "draft" },
      { from: "none", trigger: "system.install", to: "active" },
      { from: "draft", trigger: "operator.edit", to: "draft" },
      { from: "draft", trigger: "operator.propose", to: "proposed" },
      { from: "proposed", trigger: "operator.shadow", to: "shadowing" },
      ...moves(["proposed", "shadowing"], "operator.activate", "active"),
      { from: "active", trigger: "superseded", to: "retired" },
      ...moves(["draft", "proposed", "shadowing"], "operator.withdraw", "retired"),
    ],
    refusal: () => ({ code: "ruleSet.stateInvalid", status: 409 }),
  });
  assert.equal(cells, 6 * 8);
});
