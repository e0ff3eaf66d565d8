import * as api from "@/lib/interface/api/contracts/transfers";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";
import { confirmTransfer } from "@/lib/payments/transfers/confirm";

// POST /v1/core/transfers/{transferId}/confirm: device-bound release of funds; opens funding.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.confirmTransfer, async ({ tx, params, body, customer, now }) => ({
    body: await confirmTransfer(tx, {
      subscriptionId: customer.subscriptionId,
      customerId: customer.customerId,
      transferId: params.transferId,
      deviceAssertion: body.deviceAssertion,
      now,
    }),
  })),
});
