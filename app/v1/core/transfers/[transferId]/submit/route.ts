import * as api from "@/lib/api/contracts/transfers";
import { endpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";
import { submitTransfer } from "@/lib/transfers/submit";

// POST /v1/core/transfers/{transferId}/submit: recipient, destination and purpose; 202 registered.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.submitTransfer, async ({ tx, params, body, customer, now }) => ({
    body: await submitTransfer(tx, { subscriptionId: customer.subscriptionId, transferId: params.transferId, ...body, now }),
  })),
});
