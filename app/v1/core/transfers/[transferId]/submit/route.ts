import * as api from "@/lib/interface/api/contracts/transfers";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";
import { submitTransfer } from "@/lib/payments/transfers/submit";

// POST /v1/core/transfers/{transferId}/submit: recipient, destination and purpose; 202 registered.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.submitTransfer, async ({ tx, params, body, customer, now }) => ({
    body: await submitTransfer(tx, { subscriptionId: customer.subscriptionId, transferId: params.transferId, ...body, now }),
  })),
});
