/** Bank credit machine (docs/decisions.md "Bank transfer funding"): expected data literal on purpose. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { bankCreditMachine } from "@/lib/payments/reconciliation/bank-credit-state-machine";
import { checkExhaustively, moves } from "./exhaustive";

test("bank credit: every (state, trigger) cell", () => {
  const cells = checkExhaustively(bankCreditMachine, {
    states: ["QUEUED", "MATCHED", "EXCESS", "RETURN_REQUESTED", "RETURNED"],
    triggers: [
      "import.matched",
      "import.queued",
      "import.toppedUp",
      "operator.matched",
      "operator.matchedOverpaid",
      "operator.returned",
      "operator.returnExecuted",
    ],
    moves: [
      { from: "none", trigger: "import.matched", to: "MATCHED" },
      { from: "none", trigger: "import.queued", to: "QUEUED" },
      { from: "QUEUED", trigger: "import.toppedUp", to: "MATCHED" },
      { from: "QUEUED", trigger: "operator.matched", to: "MATCHED" },
      { from: "QUEUED", trigger: "operator.matchedOverpaid", to: "EXCESS" },
      ...moves(["QUEUED", "EXCESS"], "operator.returned", "RETURN_REQUESTED"),
      { from: "RETURN_REQUESTED", trigger: "operator.returnExecuted", to: "RETURNED" },
    ],
    refusal: () => ({ code: "bankCredit.stateInvalid", status: 409 }),
  });
  assert.equal(cells, 6 * 7);
});
