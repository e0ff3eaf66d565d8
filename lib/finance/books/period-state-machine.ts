/**
 * An accounting period (a calendar month). A month is open until first closed
 * (the row is created by its first close); closing refuses postings dated in it; reopening (to
 * correct it, audited) allows them again.
 */
import { defineMachine, NONE } from "@/lib/platform/state-machine/define";
import { PERIOD_STATES, type PeriodState } from "@/db/schema/books";
export { PERIOD_STATES, type PeriodState } from "@/db/schema/books";

export const PERIOD_TRIGGERS = ["close", "reopen"] as const;
export type PeriodTrigger = (typeof PERIOD_TRIGGERS)[number];

export const periodMachine = defineMachine<PeriodState, PeriodTrigger>({
  name: "ledger period",
  states: PERIOD_STATES,
  triggers: PERIOD_TRIGGERS,
  refusedCode: "ledgerPeriod.stateInvalid",
  transitions: [
    { from: [NONE, "OPEN"], trigger: "close", to: "CLOSED", notes: "postings dated in the month are refused" },
    { from: ["CLOSED"], trigger: "reopen", to: "OPEN", notes: "a correction the accountant must make in the month itself" },
  ],
});
