"use client";

import { useActionState } from "react";
import { ShownOnce } from "@/components/console/shown-once";
import { danger } from "@/components/console/ui";
import { rotateSecretAction, type SecretState } from "../secret-actions";

/**
 * The webhook secret: never displayed from the database, only right after it is issued, in full,
 * with a copy button; reloading the page hides it for good.
 */
export function SecretPanel({ partnerId, hasSecret, previousValidUntil }: { partnerId: string; hasSecret: boolean; previousValidUntil: string | null }) {
  const [state, action, pending] = useActionState<SecretState, FormData>(rotateSecretAction, {});
  return (
    <div className="mt-3 text-sm">
      <form action={action} className="flex flex-wrap items-center gap-2">
        <input type="hidden" name="partnerId" value={partnerId} />
        <span>Webhook secret: {hasSecret ? "set (shown only when issued)" : "none"}</span>
        <button className={danger} disabled={pending}>
          {hasSecret ? "Rotate secret" : "Issue a secret"}
        </button>
      </form>
      {previousValidUntil && !state.secret && <p className="mt-1 text-slate-600">The previous secret also signs deliveries until {previousValidUntil}.</p>}
      {state.error && (
        <p role="alert" className="mt-2 rounded border border-red-200 bg-red-50 p-2 text-red-900">
          {state.error}
        </p>
      )}
      {state.secret && (
        <ShownOnce label="New webhook secret" value={state.secret}>
          {state.previousValidUntil
            ? `The previous secret keeps signing deliveries (a second signature) until ${state.previousValidUntil}: the partner can switch without losing a delivery.`
            : "Deliveries are signed with this secret from now on."}
        </ShownOnce>
      )}
    </div>
  );
}
