/**
 * A statement's closing balance in the daily bank reconciliation. Recorded at
 * import UNEXPLAINED: when it differs from the ledger's cash account the difference is listed,
 * with its age, until an operator explains it (EXPLAINED, with the explanation, audited).
 */
import { defineMachine, NONE } from "@/lib/platform/state-machine/define";
import { STATEMENT_BALANCE_STATES, type StatementBalanceState } from "@/db/schema/books";
export { STATEMENT_BALANCE_STATES, type StatementBalanceState } from "@/db/schema/books";

export const STATEMENT_BALANCE_TRIGGERS = ["import", "explain"] as const;
export type StatementBalanceTrigger = (typeof STATEMENT_BALANCE_TRIGGERS)[number];

export const statementBalanceMachine = defineMachine<StatementBalanceState, StatementBalanceTrigger>({
  name: "statement balance",
  states: STATEMENT_BALANCE_STATES,
  triggers: STATEMENT_BALANCE_TRIGGERS,
  refusedCode: "reconciliation.stateInvalid",
  transitions: [
    { from: [NONE], trigger: "import", to: "UNEXPLAINED", notes: "any difference with the ledger is listed" },
    { from: ["UNEXPLAINED"], trigger: "explain", to: "EXPLAINED", notes: "an operator explains the difference" },
  ],
});
