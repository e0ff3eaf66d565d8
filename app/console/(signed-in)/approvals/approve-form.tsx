"use client";

import { useActionState } from "react";
import { FormFlash, OnceSecrets } from "@/components/console/shown-once";
import { danger, input, primary } from "@/components/console/ui";
import type { FormState } from "@/lib/operations/console/action";
import { approveProposal, declineProposal, revealProposalSecret } from "./actions";

/**
 * Approve or decline a proposal, with a reason; the queue refreshes. What the approved action
 * created to show once (a partner key, a first webhook secret) is never shown here: it waits for
 * the proposer (RevealSecretForm).
 */
export function DecideProposalForm({ proposalId, back, open }: { proposalId: string; back: string; open: boolean }) {
  const [state, approveAction, pending] = useActionState<FormState<unknown>, FormData>(approveProposal, {});
  return (
    <div>
      {open ? (
        <form action={approveAction} className="flex flex-wrap items-center gap-2">
          <input type="hidden" name="proposalId" value={proposalId} />
          <input type="hidden" name="back" value={back} />
          <label className="text-sm">
            Reason <input name="reason" required minLength={3} className={input} placeholder="Checked the evidence" />
          </label>
          <button className={primary} disabled={pending}>
            Approve
          </button>
          <button className={danger} formAction={declineProposal}>
            Decline
          </button>
        </form>
      ) : null}
      <FormFlash notice={state.notice} error={state.error} />
    </div>
  );
}

/**
 * The proposer's one look at what their approved proposal created: the answer to this submission
 * only (useActionState), never in a URL; the encrypted copy is gone once revealed.
 */
export function RevealSecretForm({ proposalId, back, available }: { proposalId: string; back: string; available: boolean }) {
  const [state, action, pending] = useActionState<FormState<Record<string, string>>, FormData>(revealProposalSecret, {});
  return (
    <div data-testid="reveal-secret">
      {state.once || !available ? null : (
        <form action={action} className="flex flex-wrap items-center gap-2">
          <input type="hidden" name="proposalId" value={proposalId} />
          <input type="hidden" name="back" value={back} />
          <p className="text-sm">Your proposal was approved and created a credential for the partner: you may see it once.</p>
          <button className={primary} disabled={pending}>
            Reveal once
          </button>
        </form>
      )}
      <FormFlash notice={state.once ? undefined : state.notice} error={state.error} />
      <OnceSecrets once={state.once} />
    </div>
  );
}
