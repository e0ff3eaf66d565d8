import * as api from "@/lib/interface/api/contracts/quotes";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";
import { serveDisclosure } from "@/lib/payments/quotes/disclosure";

// GET /v1/core/quotes/{quoteId}/disclosure: the pre-payment disclosure and its single-use token.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: endpoint(api.readDisclosure, async ({ req, tx, params, customer, now }) => {
    const disclosure = await serveDisclosure(tx, {
      subscriptionId: customer.subscriptionId,
      customerId: customer.customerId,
      quoteId: params.quoteId,
      acceptLanguage: req.headers.get("accept-language"),
      now,
    });
    return { body: disclosure.body, headers: { "content-language": disclosure.language, "cache-control": "no-store", vary: "Accept-Language" } };
  }),
});
