import * as api from "@/lib/api/contracts/transfers";
import { endpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";
import { readTransfer } from "@/lib/transfers/read";

// GET /v1/core/transfers/{transferId}: the detail; in validated, a fresh confirmationChallenge.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: endpoint(api.readTransfer, async ({ tx, params, customer, now }) => ({
    body: await readTransfer(tx, { subscriptionId: customer.subscriptionId, transferId: params.transferId, now }),
  })),
});
