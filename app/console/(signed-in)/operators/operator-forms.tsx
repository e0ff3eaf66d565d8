"use client";

import { useActionState } from "react";
import { FormFlash, ShownOnce } from "@/components/console/shown-once";
import { input } from "@/components/console/ui";
import type { FormState } from "@/lib/operations/console/action";
import { resetLinkAction } from "./actions";

/** "Reset link" for another operator: the link is shown once, here, to the admin who made it. */
export function ResetLinkForm({ operatorId, email }: { operatorId: string; email: string }) {
  const [state, action, pending] = useActionState<FormState<{ link: string }>, FormData>(resetLinkAction, {});
  return (
    <div>
      <form action={action} className="flex flex-wrap items-center gap-2">
        <input type="hidden" name="operatorId" value={operatorId} />
        <input type="hidden" name="back" value="/console/operators" />
        <select name="kind" className={input} aria-label={`Reset for ${email}`}>
          <option value="password">Password</option>
          <option value="totp">Second factor</option>
        </select>
        <button className="rounded border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50" disabled={pending}>
          Make reset link
        </button>
      </form>
      <FormFlash notice={state.once ? undefined : state.notice} error={state.error} />
      {state.once ? (
        <ShownOnce label="One-time reset link" value={state.once.link}>
          {state.notice}
        </ShownOnce>
      ) : null}
    </div>
  );
}
