import * as api from "@/lib/interface/api/contracts/quotes";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";
import { acceptQuote } from "@/lib/payments/quotes/accept";

// POST /v1/core/quotes/{quoteId}/accept: accept the disclosed quote; the transfer starts in registered.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.acceptQuote, async ({ tx, params, body, partner, customer, now }) => ({
    body: await acceptQuote(tx, {
      subscriptionId: customer.subscriptionId,
      customerId: customer.customerId,
      partnerId: partner.id,
      quoteId: params.quoteId,
      disclosureToken: body.disclosureToken,
      purposeOfTransfer: body.purposeOfTransfer,
      now,
    }),
  })),
});
