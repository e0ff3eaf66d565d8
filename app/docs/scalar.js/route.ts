import { scalarBundle } from "@/lib/interface/api/docs-page";

// GET /docs/scalar.js: the renderer's browser bundle, from node_modules (no CDN: /docs works offline).
export async function GET() {
  const { body, version } = await scalarBundle();
  return new Response(body, {
    headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=3600", etag: `"scalar-${version}"` },
  });
}
