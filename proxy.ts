import { NextResponse, type NextRequest } from "next/server";

// Hosted webview pages: per-partner Content-Security-Policy (frame-ancestors = the partner's
// registered origins) with a per-request script nonce, which Next applies to its own scripts.
export async function proxy(request: NextRequest) {
  const [, , , token] = request.nextUrl.pathname.split("/"); // /webviews/{kind}/{token}
  const { ready } = await import("@/lib/platform/ready");
  const { partnerOfToken } = await import("@/lib/webviews/tokens");
  const { webviewContentSecurityPolicy, WEBVIEW_STATIC_HEADERS } = await import("@/lib/webviews/security-headers");
  const { partners } = await import("@/db/schema");
  const { eq } = await import("drizzle-orm");

  const db = await ready();
  const partnerId = token ? await partnerOfToken(db, token) : null;
  const [partner] = partnerId ? await db.select({ origins: partners.returnOrigins }).from(partners).where(eq(partners.id, partnerId)) : [];
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const csp = webviewContentSecurityPolicy(nonce, partner?.origins ?? []);

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("content-security-policy", csp);
  requestHeaders.set("x-nonce", nonce);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", csp);
  for (const [name, value] of Object.entries(WEBVIEW_STATIC_HEADERS)) response.headers.set(name, value);
  return response;
}

export const config = {
  // Pages only: /webviews/{kind}/{token}, not their POST actions.
  matcher: ["/webviews/kyc/:token", "/webviews/funding/:token"],
};
