"use client";

import { useState } from "react";
import { input, primary } from "./ui";

/**
 * A credential shown once (a new partner key, a webhook secret): in full, selectable, with a copy
 * button. It lives only in the answer to the form that created it; reloading the page hides it.
 */
export function ShownOnce({ label, value, children }: { label: string; value: string; children?: React.ReactNode }) {
  const [copied, setCopied] = useState(false);
  return (
    <div role="status" className="mt-2 rounded border border-amber-300 bg-amber-50 p-3 text-sm">
      <p className="font-semibold">{label}: copy it now, it will not be shown again.</p>
      <div className="mt-2 flex gap-2">
        <input readOnly aria-label={label} value={value} className={`${input} w-full font-mono`} onFocus={(e) => e.currentTarget.select()} />
        <button
          type="button"
          className={primary}
          onClick={() =>
            navigator.clipboard.writeText(value).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
      {children && <p className="mt-1 text-slate-700">{children}</p>}
    </div>
  );
}

/** The notice or error of a form read with useActionState, where the page's Flash would show it. */
export function FormFlash({ notice, error }: { notice?: string; error?: string }) {
  if (error)
    return (
      <p role="alert" className="mt-2 rounded border border-red-200 bg-red-50 p-2 text-sm text-red-900">
        {error}
      </p>
    );
  if (notice)
    return (
      <p role="status" className="mt-2 rounded border border-emerald-200 bg-emerald-50 p-2 text-sm text-emerald-900">
        {notice}
      </p>
    );
  return null;
}

/**
 * The credentials an action created, each with how it is kept (say it truly).
 * A partner API key is stored as its hash only; a webhook secret is stored as issued, in the
 * partner's settings, because the platform signs every delivery with it: it cannot be a hash.
 */
export function OnceSecrets({ once }: { once: Record<string, string> | undefined }) {
  if (!once) return null;
  return (
    <>
      {once.apiKey ? (
        <ShownOnce label="New subscription key" value={once.apiKey}>
          {once.keyId ? `Key ${once.keyId}: ` : ""}the partner sends it as Ocp-Apim-Subscription-Key. Only its hash is stored: it cannot be shown again.
        </ShownOnce>
      ) : null}
      {once.webhookSecret ? (
        <ShownOnce label="New webhook secret" value={once.webhookSecret}>
          Deliveries are signed with it from now on. It is stored as issued in the partner&apos;s settings (the platform needs it to sign each delivery, so it
          cannot be a hash); the console does not show it again: rotate it for a new one.
        </ShownOnce>
      ) : null}
    </>
  );
}
