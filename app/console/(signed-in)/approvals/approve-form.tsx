"use client";

import { useActionState } from "react";
import { FormFlash, ShownOnce } from "@/components/console/shown-once";
import { danger, input, primary } from "@/components/console/ui";
import type { FormState } from "@/lib/console/action";
import { approveProposal, declineProposal } from "./actions";

/**
 * Approve or decline a proposal, with a reason. Approval answers this submission only
 * (useActionState): what the action shows once (a partner key, a first webhook secret) is never in
 * a URL; the queue refreshes.
 */
export function DecideProposalForm({ proposalId, back }: { proposalId: string; back: string }) {
  const [state, approveAction, pending] = useActionState<FormState<Record<string, string>>, FormData>(approveProposal, {});
  return (
    <div>
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
      <FormFlash notice={state.notice} error={state.error} />
      {state.once
        ? Object.entries(state.once).map(([label, value]) => (
            <ShownOnce key={label} label={label} value={value}>
              Shown to you once: only its hash is stored.
            </ShownOnce>
          ))
        : null}
    </div>
  );
}
