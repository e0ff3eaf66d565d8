/**
 * Proposal states (maker-checker): an operator proposes an action under dual
 * control; a different operator approves it (the action runs then, in the approver's
 * transaction) or declines it; a proposal nobody decided within 30 days lapses. Every decision is
 * final. Refusals are 409 proposal.stateInvalid (shown in the console as "already decided").
 */
import { defineMachine, NONE } from "@/lib/platform/state-machine/define";
import { PROPOSAL_STATES, type ProposalState } from "@/db/schema/proposals";
export { PROPOSAL_STATES, type ProposalState } from "@/db/schema/proposals";

export const PROPOSAL_TRIGGERS = ["operator.propose", "operator.approve", "operator.decline", "clock.lapse"] as const;
export type ProposalTrigger = (typeof PROPOSAL_TRIGGERS)[number];

export const proposalMachine = defineMachine<ProposalState, ProposalTrigger>({
  name: "proposal",
  states: PROPOSAL_STATES,
  triggers: PROPOSAL_TRIGGERS,
  refusedCode: "proposal.stateInvalid",
  transitions: [
    { from: [NONE], trigger: "operator.propose", to: "PROPOSED", notes: "queued on the Approvals page" },
    { from: ["PROPOSED"], trigger: "operator.approve", to: "APPROVED", notes: "the action runs in the approver's transaction" },
    { from: ["PROPOSED"], trigger: "operator.decline", to: "DECLINED", notes: "nothing runs" },
    { from: ["PROPOSED"], trigger: "clock.lapse", to: "LAPSED", notes: "30 days undecided: nothing runs" },
  ],
});
