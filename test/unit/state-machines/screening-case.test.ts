/** Screening case machine (docs/decisions.md, "Screening cases"): expected data literal on purpose. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { screeningCaseMachine } from "@/lib/compliance/screening-cases/state-machine";
import { checkExhaustively } from "./exhaustive";

test("screening case: every (state, trigger) cell; a decided case is final", () => {
  const cells = checkExhaustively(screeningCaseMachine, {
    states: ["OPEN", "FALSE_POSITIVE", "TRUE_MATCH"],
    triggers: ["screening.closeMatch", "operator.falsePositive", "operator.trueMatch"],
    moves: [
      { from: "none", trigger: "screening.closeMatch", to: "OPEN" },
      { from: "OPEN", trigger: "screening.closeMatch", to: "OPEN" },
      { from: "OPEN", trigger: "operator.falsePositive", to: "FALSE_POSITIVE" },
      { from: "OPEN", trigger: "operator.trueMatch", to: "TRUE_MATCH" },
    ],
    refusal: () => ({ code: "screeningCase.stateInvalid", status: 409 }),
  });
  assert.equal(cells, 4 * 3);
});
