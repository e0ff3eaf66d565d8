"use client";

import Link from "next/link";
import { useActionState } from "react";
import { FormFlash } from "@/components/console/shown-once";
import { input, primary } from "@/components/console/ui";
import type { FormState } from "@/lib/operations/console/action";
import { confirmEnrolmentAction } from "./actions";

/**
 * The first code confirms the set-up; the recovery codes are shown once here. The form stays
 * mounted once the page refreshes to "on", so the codes stay on screen until the operator leaves.
 */
export function ConfirmEnrolmentForm({ pending }: { pending: boolean }) {
  const [state, action, busy] = useActionState<FormState<{ recoveryCodes: string }>, FormData>(confirmEnrolmentAction, {});
  return (
    <div>
      {pending && !state.once ? (
        <form action={action} className="flex flex-wrap items-center gap-2">
          <input type="hidden" name="back" value="/console/enrol" />
          <label className="text-sm">
            Code from the app <input name="code" required inputMode="numeric" autoComplete="one-time-code" className={input} />
          </label>
          <button className={primary} disabled={busy}>
            Turn on
          </button>
        </form>
      ) : null}
      <FormFlash notice={state.notice} error={state.error} />
      {state.once ? (
        <div role="status" className="mt-2 rounded border border-amber-300 bg-amber-50 p-3 text-sm">
          <p className="font-semibold">Recovery codes: each signs you in once if you lose the device. Keep them now: they will not be shown again.</p>
          <ul className="mt-2 grid grid-cols-2 gap-1 font-mono" data-testid="recovery-codes">
            {state.once.recoveryCodes.split(" ").map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
          <Link className="mt-3 inline-block text-blue-700 underline" href="/console">
            Continue to the console
          </Link>
        </div>
      ) : null}
    </div>
  );
}
