import * as api from "@/lib/interface/api/contracts/quotes";
import { readEndpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";
import { quoteInScope, quoteView, quoteWithCaller } from "@/lib/payments/quotes/records";

// GET /v1/core/quotes/{quoteId}: the quote and its lifecycle status.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: readEndpoint(
    api.readQuote,
    async ({ db, params, customer, now, found }) => ({
      body: quoteView(found ?? (await quoteInScope(db, customer.subscriptionId, params.quoteId)), now),
    }),
    { withCaller: quoteWithCaller },
  ),
});
