import { NextResponse, type NextRequest } from "next/server";
import { WEBVIEW_LANGUAGE_HEADER } from "@/lib/platform/webviews/language-header";
import {
  CONSOLE_STATIC_HEADERS,
  consoleContentSecurityPolicy,
  docsContentSecurityPolicy,
  WEBVIEW_STATIC_HEADERS,
  webviewContentSecurityPolicy,
} from "@/lib/platform/webviews/security-headers";

/**
 * Runs before our pages only (the matcher below): sets the nonce-based Content-Security-Policy of
 * our HTML pages. Next reads the nonce from the request's CSP header and applies it to its own
 * scripts. Requests Next would answer with a bare 500 are refused earlier, at the Node server
 * (lib/platform/http/request-guard.ts), for the API too.
 */
export async function proxy(request: NextRequest) {
  const path = request.nextUrl.pathname;
  if (WEBVIEW_PAGE.test(path)) return webviewPage(request);
  if (path === "/console" || path.startsWith("/console/") || path.startsWith("/api/auth/")) {
    const nonce = newNonce();
    return withPolicy(request, nonce, consoleContentSecurityPolicy(nonce), CONSOLE_STATIC_HEADERS);
  }
  if (path === "/docs" || path === "/docs/") {
    const nonce = newNonce();
    return withPolicy(request, nonce, docsContentSecurityPolicy(nonce), CONSOLE_STATIC_HEADERS);
  }
  // The webview language header is ours: a client's own copy never reaches the root layout.
  if (request.headers.has(WEBVIEW_LANGUAGE_HEADER)) {
    const requestHeaders = new Headers(request.headers);
    requestHeaders.delete(WEBVIEW_LANGUAGE_HEADER);
    return NextResponse.next({ request: { headers: requestHeaders } });
  }
  return NextResponse.next();
}

// Hosted webview pages (/webviews/{kind}/{token}), not their POST actions or sub-pages.
const WEBVIEW_PAGE = /^\/webviews\/(kyc|funding|receipt)\/[^/]+$/;

const newNonce = () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");

/**
 * Per-partner policy: frame-ancestors = the partner's registered origins. The page's language is
 * decided here too, once, for both `<html lang>` (root layout) and the page (lib/platform/webviews/language.ts).
 */
async function webviewPage(request: NextRequest) {
  const [, , , token] = request.nextUrl.pathname.split("/");
  const { ready } = await import("@/lib/platform/ready");
  const { partnerOfToken } = await import("@/lib/platform/webviews/tokens");
  const { webviewLanguage } = await import("@/lib/platform/webviews/language");
  const { partners } = await import("@/db/schema");
  const { eq } = await import("drizzle-orm");

  const db = await ready();
  const partnerId = token ? await partnerOfToken(db, token) : null;
  const [partner] = partnerId ? await db.select({ origins: partners.returnOrigins }).from(partners).where(eq(partners.id, partnerId)) : [];
  const language = await webviewLanguage(db, token ?? "", request.headers.get("accept-language"));
  const nonce = newNonce();
  return withPolicy(request, nonce, webviewContentSecurityPolicy(nonce, partner?.origins ?? []), WEBVIEW_STATIC_HEADERS, {
    [WEBVIEW_LANGUAGE_HEADER]: language,
  });
}

function withPolicy(request: NextRequest, nonce: string, csp: string, staticHeaders: Record<string, string>, forwarded: Record<string, string> = {}) {
  const requestHeaders = new Headers(request.headers);
  requestHeaders.delete(WEBVIEW_LANGUAGE_HEADER);
  for (const [name, value] of Object.entries(forwarded)) requestHeaders.set(name, value);
  requestHeaders.set("content-security-policy", csp);
  requestHeaders.set("x-nonce", nonce);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", csp);
  for (const [name, value] of Object.entries(staticHeaders)) response.headers.set(name, value);
  return response;
}

export const config = {
  // Pages only (console, next-auth, webviews, docs, and any other page, whose root layout must not
  // see a client's own language header): not the API (/v1, the keyless JSON routes of
  // request-guard.ts's isApi, the probes), which has no page and skipped this layer, nor
  // Next's static assets, nor the KYC photo upload: Next copies a proxied request's body up to
  // proxyClientMaxBodySize (2 MiB, next.config.mjs), which would cut a photo (up to 10 MiB); that
  // route reads its body with its own limit. Each excluded prefix ends at a segment boundary.
  matcher: [
    "/((?!_next/static/|_next/image(?:/|$)|favicon\\.ico$|v1(?:/|$)|\\.well-known/|livez(?:/|$)|readyz(?:/|$)|metrics(?:/|$)|webviews/kyc/[^/]+/photo$).*)",
  ],
};
