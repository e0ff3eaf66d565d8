/**
 * Rule set states: an operator edits a draft, proposes it (frozen; backtest
 * figures stay true to it), may shadow-run it beside the live set, and a second operator activates
 * it, which retires the set live until then. A draft or proposal can be withdrawn (retired without
 * ever acting). Refusals are 409 ruleSet.stateInvalid; the four-eyes rule (the author may not
 * activate) is checked in ./rule-sets.ts, with its own code.
 */
import { defineMachine, NONE } from "@/lib/platform/state-machine/define";
import { RULE_SET_STATES, type RuleSetState } from "@/db/schema/monitoring";
export { RULE_SET_STATES, type RuleSetState } from "@/db/schema/monitoring";

export const RULE_SET_TRIGGERS = [
  "operator.draft",
  "system.install",
  "operator.edit",
  "operator.propose",
  "operator.shadow",
  "operator.activate",
  "superseded",
  "operator.withdraw",
] as const;
export type RuleSetTrigger = (typeof RULE_SET_TRIGGERS)[number];

export const ruleSetMachine = defineMachine<RuleSetState, RuleSetTrigger>({
  name: "rule set",
  states: RULE_SET_STATES,
  triggers: RULE_SET_TRIGGERS,
  refusedCode: "ruleSet.stateInvalid",
  transitions: [
    { from: [NONE], trigger: "operator.draft", to: "draft", notes: "a copy of a set, edited by its author" },
    { from: [NONE], trigger: "system.install", to: "active", notes: "the shipped default pack on a fresh database" },
    { from: ["draft"], trigger: "operator.edit", to: "unchanged" },
    { from: ["draft"], trigger: "operator.propose", to: "proposed", notes: "frozen for review and backtest" },
    { from: ["proposed"], trigger: "operator.shadow", to: "shadowing", notes: "evaluated beside the live set, never acts" },
    { from: ["proposed", "shadowing"], trigger: "operator.activate", to: "active", notes: "by an operator other than the author" },
    { from: ["active"], trigger: "superseded", to: "retired", notes: "another set was activated" },
    { from: ["draft", "proposed", "shadowing"], trigger: "operator.withdraw", to: "retired" },
  ],
});
