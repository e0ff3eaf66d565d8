import * as api from "@/lib/api/contracts/transfers";
import { endpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";
import { cancelTransfer } from "@/lib/transfers/cancel";

// POST /v1/core/transfers/{transferId}/cancel: abort, cancel with refund, or ask the network.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.cancelTransfer, async ({ tx, params, body, customer, now }) =>
    cancelTransfer(tx, { subscriptionId: customer.subscriptionId, transferId: params.transferId, cancellationReason: body.cancellationReason, now }),
  ),
});
