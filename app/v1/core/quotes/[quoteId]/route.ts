import * as api from "@/lib/api/contracts/quotes";
import { endpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";
import { quoteInScope, quoteView } from "@/lib/quotes/records";

// GET /v1/core/quotes/{quoteId}: the quote and its lifecycle status.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: endpoint(api.readQuote, async ({ tx, params, customer, now }) => ({
    body: quoteView(await quoteInScope(tx, customer.subscriptionId, params.quoteId), now),
  })),
});
