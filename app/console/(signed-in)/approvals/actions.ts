"use server";

import { z } from "zod";
import { consoleAction, consoleFormAction } from "@/lib/operations/console/action";
import { approve, decline, revealSecret } from "@/lib/operations/dual-control/proposals";

const decision = z.object({ proposalId: z.string().min(1), reason: z.string().trim().min(3).max(500) });

// Approve a proposal: the action runs now, as this operator; its author may not.
// What the action created to show once (a partner key) is not the approver's: it waits, encrypted,
// for the proposer.
export const approveProposal = consoleFormAction("reviewer", decision, async ({ tx, input, operator, now }) => {
  const { proposal, performed, secretKept } = await approve(tx, input.proposalId, { operator, reason: input.reason, now });
  const kept = secretKept ? ` What it created is revealed once to ${proposal.proposedByEmail}, the proposer, on this proposal's page.` : "";
  return { notice: `Approved ${proposal.id}: ${performed.notice}${kept}` };
});

// Decline a proposal (its author may withdraw it): nothing runs.
export const declineProposal = consoleAction("reviewer", decision, async ({ tx, input, operator, now }) => {
  const proposal = await decline(tx, input.proposalId, { operator, reason: input.reason, now });
  return `Declined ${proposal.id}: nothing was changed.`;
});

// The proposer reveals, once, the credential their approved proposal created (to this submission only).
export const revealProposalSecret = consoleFormAction("reviewer", z.object({ proposalId: z.string().min(1) }), async ({ tx, input, operator, now }) => {
  const once = await revealSecret(tx, input.proposalId, { operator, reason: "Reveal what the approved proposal created", now });
  return { notice: "Revealed once: copy it now.", once };
});
