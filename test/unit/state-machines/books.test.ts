/** The books' machines: ledger period, manual journal, statement balance. Expected data literal on purpose. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { manualJournalMachine } from "@/lib/finance/books/journal-state-machine";
import { periodMachine } from "@/lib/finance/books/period-state-machine";
import { statementBalanceMachine } from "@/lib/finance/books/statement-balance-state-machine";
import { checkExhaustively, moves } from "./exhaustive";

test("ledger period: every (state, trigger) cell", () => {
  const cells = checkExhaustively(periodMachine, {
    states: ["OPEN", "CLOSED"],
    triggers: ["close", "reopen"],
    moves: [...moves(["none", "OPEN"], "close", "CLOSED"), { from: "CLOSED", trigger: "reopen", to: "OPEN" }],
    refusal: () => ({ code: "ledgerPeriod.stateInvalid", status: 409 }),
  });
  assert.equal(cells, 3 * 2);
});

test("manual journal: every (state, trigger) cell", () => {
  const cells = checkExhaustively(manualJournalMachine, {
    states: ["PROPOSED", "POSTED", "DISCARDED"],
    triggers: ["propose", "post", "discard"],
    moves: [
      { from: "none", trigger: "propose", to: "PROPOSED" },
      { from: "PROPOSED", trigger: "post", to: "POSTED" },
      { from: "PROPOSED", trigger: "discard", to: "DISCARDED" },
    ],
    refusal: () => ({ code: "journal.stateInvalid", status: 409 }),
  });
  assert.equal(cells, 4 * 3);
});

test("statement balance: every (state, trigger) cell", () => {
  const cells = checkExhaustively(statementBalanceMachine, {
    states: ["UNEXPLAINED", "EXPLAINED"],
    triggers: ["import", "explain"],
    moves: [
      { from: "none", trigger: "import", to: "UNEXPLAINED" },
      { from: "UNEXPLAINED", trigger: "explain", to: "EXPLAINED" },
    ],
    refusal: () => ({ code: "reconciliation.stateInvalid", status: 409 }),
  });
  assert.equal(cells, 3 * 2);
});
