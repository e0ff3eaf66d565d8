"use server";

import { z } from "zod";
import { consoleAction, consoleFormAction } from "@/lib/console/action";
import { approve, decline } from "@/lib/dual-control/proposals";

const decision = z.object({ proposalId: z.string().min(1), reason: z.string().trim().min(3).max(500) });

// Approve a proposal (issue 23 item 5): the action runs now, as this operator; its author may not.
// What the action shows once (a new partner key) comes back to this submission only.
export const approveProposal = consoleFormAction("reviewer", decision, async ({ tx, input, operator, now }) => {
  const { proposal, performed } = await approve(tx, input.proposalId, { operator, reason: input.reason, now });
  return { notice: `Approved ${proposal.id}: ${performed.notice}`, ...(performed.once ? { once: performed.once } : {}) };
});

// Decline a proposal (its author may withdraw it): nothing runs.
export const declineProposal = consoleAction("reviewer", decision, async ({ tx, input, operator, now }) => {
  const proposal = await decline(tx, input.proposalId, { operator, reason: input.reason, now });
  return `Declined ${proposal.id}: nothing was changed.`;
});
