/**
 * Security headers of the hosted webviews (KYC, funding): only the partner's registered origins
 * may frame them, nothing is loaded from third parties, scripts run only with this response's
 * nonce, and no Referer leaks the capability URL.
 */
export function webviewContentSecurityPolicy(nonce: string, frameAncestors: string[]): string {
  const ancestors = frameAncestors.length > 0 ? frameAncestors.join(" ") : "'none'";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
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

export const WEBVIEW_STATIC_HEADERS: Record<string, string> = {
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
  "cache-control": "no-store",
  "permissions-policy": "camera=(self), microphone=(), geolocation=()",
};
