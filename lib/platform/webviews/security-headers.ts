import { headerSafeOrigins } from "@/lib/platform/webviews/origins";

/**
 * Content-Security-Policy of our HTML pages: nothing is loaded from third parties, scripts run
 * only with this response's nonce (Next applies it to its own scripts), and framing is limited to
 * `frameAncestors` (none when empty). Origins that are not exact, safe origins are dropped here
 * even though every writer validates them (lib/platform/webviews/origins.ts): a header is never built from
 * an unchecked value.
 */
function contentSecurityPolicy(nonce: string, frameAncestors: readonly unknown[]): string {
  const safe = headerSafeOrigins(frameAncestors);
  const ancestors = safe.length > 0 ? safe.join(" ") : "'none'";
  // next dev (React's debugging) needs eval; production builds never get it.
  const devEval = process.env.NODE_ENV === "development" ? " 'unsafe-eval'" : "";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${devEval}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "object-src 'none'",
    `frame-ancestors ${ancestors}`,
  ].join("; ");
}

/**
 * Hosted webviews (KYC, funding): only the partner's registered origins may frame them, and no
 * Referer leaks the capability URL.
 */
export function webviewContentSecurityPolicy(nonce: string, frameAncestors: readonly unknown[]): string {
  return contentSecurityPolicy(nonce, frameAncestors);
}

/** The operator console and next-auth's pages: never framed by anyone (clickjacking). */
export function consoleContentSecurityPolicy(nonce: string): string {
  return contentSecurityPolicy(nonce, []);
}

/** The API reference (/docs): the same policy, never framed; its "Try it" calls this origin only. */
export function docsContentSecurityPolicy(nonce: string): string {
  return contentSecurityPolicy(nonce, []);
}

export const WEBVIEW_STATIC_HEADERS: Record<string, string> = {
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
  "cache-control": "no-store",
  "permissions-policy": "camera=(self), microphone=(), geolocation=()",
};

export const CONSOLE_STATIC_HEADERS: Record<string, string> = {
  "referrer-policy": "same-origin",
  "x-content-type-options": "nosniff",
  // For browsers without CSP frame-ancestors.
  "x-frame-options": "DENY",
  "permissions-policy": "camera=(), microphone=(), geolocation=()",
};
