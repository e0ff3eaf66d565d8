"use client";

import type { ClosureCallback } from "@/lib/platform/webviews/closure";

/**
 * Signals that a hosted webview closed (decisions section 4): postMessage to the embedding page
 * or opener, to the partner's registered origin only (never "*"); when the page runs top-level
 * (a native app's webview), navigation to the partner's deep link.
 */
export function signalClosure(closure: ClosureCallback, fields: Record<string, string>): void {
  const message = { type: closure.postMessage.type, ...fields };
  const target = window.parent !== window ? window.parent : window.opener;
  if (target && closure.postMessage.targetOrigin) target.postMessage(message, closure.postMessage.targetOrigin);
  if (!target && closure.deepLink) {
    const url = new URL(closure.deepLink);
    for (const [key, value] of Object.entries(fields)) url.searchParams.set(key, value);
    window.location.href = url.toString();
  }
}
