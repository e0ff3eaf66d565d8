"use client";

import { useActionState } from "react";
import { FormFlash, ShownOnce } from "@/components/console/shown-once";
import { danger, input, primary } from "@/components/console/ui";
import type { FormState } from "@/lib/console/action";
import { approveProposal, declineProposal } from "./actions";

/** What an approved action may show once, by its name in the action's answer. */
const ONCE_LABELS: Record<string, string> = { apiKey: "New subscription key", webhookSecret: "New webhook secret" };

/**
 * Approve or decline a proposal, with a reason. Approval answers this submission only
 * (useActionState): what the action shows once (a partner key, a first webhook secret) is never in
 * a URL; the queue refreshes.
 */
export function DecideProposalForm({ proposalId, back, open }: { proposalId: string; back: string; open: boolean }) {
  const [state, approveAction, pending] = useActionState<FormState<Record<string, string>>, FormData>(approveProposal, {});
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
      {state.once
        ? Object.entries(ONCE_LABELS).map(([key, label]) =>
            state.once?.[key] ? (
              <ShownOnce key={key} label={label} value={state.once[key]}>
                Shown to you once: only its hash is stored.
              </ShownOnce>
            ) : null,
          )
        : null}
    </div>
  );
}
