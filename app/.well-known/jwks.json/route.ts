import { methods } from "@/lib/interface/http/methods";
import { ready } from "@/lib/platform/ready";
import { signingKeySet } from "@/lib/payments/quotes/service-keys";

// GET /.well-known/jwks.json: public keys verifying the service's signedQuote (several during rotation).
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: async () => {
    await ready();
    const keys = await signingKeySet();
    return Response.json({ keys: keys.published }, { headers: { "cache-control": "public, max-age=300" } });
  },
});
