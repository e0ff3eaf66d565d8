import * as api from "@/lib/interface/api/contracts/transfers";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";
import { repairPayoutForCustomer } from "@/lib/payments/payouts/repair";

// POST /v1/core/transfers/{transferId}/payout-repair: a new destination for a payout the bank rejected.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.repairPayout, async ({ tx, params, body, customer, now }) => ({
    status: 202,
    body: await repairPayoutForCustomer(tx, { subscriptionId: customer.subscriptionId, transferId: params.transferId, payoutMethod: body.payoutMethod, now }),
  })),
});
