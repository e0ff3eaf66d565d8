import * as api from "@/lib/interface/api/contracts/quotes";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";
import { createQuote } from "@/lib/payments/quotes/create";

// POST /v1/core/quotes: a signed quote for a beneficiary.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.createQuote, async ({ tx, body, partner, customer, now }) => ({
    body: await createQuote(tx, { partner, subscriptionId: customer.subscriptionId, customerId: customer.customerId, req: body, now }),
  })),
});
