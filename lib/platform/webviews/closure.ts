import type { partners } from "@/db/schema";

/**
 * The closureCallback object of decisions section 4: the webview posts
 * {type, <sessionIdField>, sessionState} to the partner's registered origin (never "*") and, when
 * the partner registered a URL scheme, navigates to deepLink with the same values in its query.
 */
export interface ClosureCallback {
  postMessage: { type: "kyc.closed" | "funding.closed"; targetOrigin: string | null };
  deepLink: string | null;
}

export function closureCallbackFor(partner: Pick<typeof partners.$inferSelect, "returnOrigins" | "deepLinkBase">, kind: "kyc" | "funding"): ClosureCallback {
  return {
    postMessage: { type: kind === "kyc" ? "kyc.closed" : "funding.closed", targetOrigin: partner.returnOrigins[0] ?? null },
    deepLink: partner.deepLinkBase ? `${partner.deepLinkBase.replace(/\/$/, "")}/${kind}-closed` : null,
  };
}
