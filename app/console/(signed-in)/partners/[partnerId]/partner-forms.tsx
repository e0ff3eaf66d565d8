"use client";

import { useActionState } from "react";
import { FormFlash, OnceSecrets } from "@/components/console/shown-once";
import { input, primary } from "@/components/console/ui";
import type { FormState } from "@/lib/operations/console/action";
import { issueKeyAction, updatePartnerAction } from "../actions";

/**
 * "Issue a new key": the key comes back to this submission only (useActionState), never in a URL,
 * a redirect or a log, and the list above refreshes with its prefix. Under dual
 * control it is issued on approval and revealed once to this operator, the proposer, on the
 * proposal's page.
 */
export function IssueKeyForm({ partnerId, back }: { partnerId: string; back: string }) {
  const [state, action, pending] = useActionState<FormState<Record<string, string>>, FormData>(issueKeyAction, {});
  return (
    <div>
      <form action={action}>
        <input type="hidden" name="partnerId" value={partnerId} />
        <input type="hidden" name="back" value={back} />
        <button className={primary} disabled={pending}>
          Issue a new key
        </button>
      </form>
      <FormFlash notice={state.once ? undefined : state.notice} error={state.error} />
      <OnceSecrets once={state.once} />
    </div>
  );
}

export interface SettingsValues {
  pricingMode: string;
  webhookUrl: string;
  returnOrigins: string;
  jwksSummary: string;
}

/** The integration settings; a webhook URL set for the first time shows the endpoint's first secret once. */
export function SettingsForm({ partnerId, back, values: v }: { partnerId: string; back: string; values: SettingsValues }) {
  const [state, action, pending] = useActionState<FormState<Record<string, string>>, FormData>(updatePartnerAction, {});
  return (
    <>
      <form action={action} className="grid gap-3 text-sm">
        <input type="hidden" name="partnerId" value={partnerId} />
        <input type="hidden" name="back" value={back} />
        <label>
          Pricing mode{" "}
          <select name="pricingMode" defaultValue={v.pricingMode} className={input}>
            <option>SERVICE_PRICED</option>
            <option>PARTNER_SIGNED</option>
          </select>
        </label>
        <label className="grid gap-1">
          Webhook URL (https in production)
          <input name="webhookUrl" defaultValue={v.webhookUrl} className={input} />
        </label>
        <label className="grid gap-1">
          Webview origins (space or comma separated; the first receives postMessage)
          <input name="returnOrigins" defaultValue={v.returnOrigins} className={input} />
        </label>
        <label className="grid gap-1">
          JWKS URL (fetched now, validated, stored)
          <input name="jwksUrl" className={input} placeholder="https://partner.example/.well-known/jwks.json" />
        </label>
        <label className="grid gap-1">
          JWKS (inline JSON; leave both empty to keep {v.jwksSummary})
          <textarea name="jwksJson" rows={4} className={`${input} font-mono`} />
        </label>
        <div>
          <button className={primary} disabled={pending}>
            Save settings
          </button>
        </div>
      </form>
      <FormFlash notice={state.notice} error={state.error} />
      <OnceSecrets once={state.once} />
    </>
  );
}
