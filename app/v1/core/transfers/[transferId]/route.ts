import * as api from "@/lib/interface/api/contracts/transfers";
import { readEndpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";
import { transferDetailWithCaller } from "@/lib/payments/transfers/detail-query";
import { readTransfer } from "@/lib/payments/transfers/read";

// GET /v1/core/transfers/{transferId}: the detail; in validated, a fresh confirmationChallenge.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: readEndpoint(
    api.readTransfer,
    async ({ db, write, params, customer, now, found }) => ({
      body: await readTransfer(db, write, { subscriptionId: customer.subscriptionId, transferId: params.transferId, now }, found),
    }),
    { withCaller: transferDetailWithCaller },
  ),
});
