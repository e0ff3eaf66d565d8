import * as api from "@/lib/interface/api/contracts/transfers";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";
import { cancelTransfer } from "@/lib/payments/transfers/cancel";

// POST /v1/core/transfers/{transferId}/cancel: abort, cancel with refund, or ask the network.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.cancelTransfer, async ({ tx, params, body, customer, now }) => {
    const cancelled = await cancelTransfer(tx, {
      subscriptionId: customer.subscriptionId,
      transferId: params.transferId,
      cancellationReason: body.cancellationReason,
      now,
    });
    // Spec 4.1 rule 10: 200 when aborted before funding; 202 when a refund or the network follows.
    return { status: cancelled.cancellationOutcome === "ABORTED_PRE_FUNDING" ? 200 : 202, body: cancelled };
  }),
});
