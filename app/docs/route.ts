import { docsPageHtml } from "@/lib/interface/api/docs-page";

// GET /docs: the interactive API reference (Scalar, served from this origin) over /v1/openapi.json.
// The proxy sets this page's Content-Security-Policy and hands its nonce over in x-nonce.
export function GET(req: Request) {
  const html = docsPageHtml(req.headers.get("x-nonce") ?? "");
  return new Response(html, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}
