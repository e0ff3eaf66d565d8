/**
 * A manual journal: proposed by one operator, then posted to the ledger when a
 * second approves its dual-control proposal (lib/operations/dual-control), or discarded.
 */
import { defineMachine, NONE } from "@/lib/platform/state-machine/define";
import { MANUAL_JOURNAL_STATES, type ManualJournalState } from "@/db/schema/books";
export { MANUAL_JOURNAL_STATES, type ManualJournalState, type ManualJournalLine } from "@/db/schema/books";

export const MANUAL_JOURNAL_TRIGGERS = ["propose", "post", "discard"] as const;
export type ManualJournalTrigger = (typeof MANUAL_JOURNAL_TRIGGERS)[number];

export const manualJournalMachine = defineMachine<ManualJournalState, ManualJournalTrigger>({
  name: "manual journal",
  states: MANUAL_JOURNAL_STATES,
  triggers: MANUAL_JOURNAL_TRIGGERS,
  refusedCode: "journal.stateInvalid",
  transitions: [
    { from: [NONE], trigger: "propose", to: "PROPOSED", notes: "balanced per currency, waiting for a second operator" },
    { from: ["PROPOSED"], trigger: "post", to: "POSTED", notes: "a second operator approves it: one ledger entry" },
    { from: ["PROPOSED"], trigger: "discard", to: "DISCARDED", notes: "an admin (the proposer too) withdraws it" },
  ],
});
