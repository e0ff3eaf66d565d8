import { ready } from "@/lib/platform/ready";
import { signingKeySet } from "@/lib/quotes/service-keys";

// GET /.well-known/jwks.json: public keys verifying the service's signedQuote (several during rotation).
export async function GET() {
  await ready();
  const keys = await signingKeySet();
  return Response.json({ keys: keys.published }, { headers: { "cache-control": "public, max-age=300" } });
}
