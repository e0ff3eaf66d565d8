import * as api from "@/lib/interface/api/contracts/claims";
import { listClaims, reportClaim } from "@/lib/payments/claims/claims";
import { endpoint, readEndpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";

// POST /v1/core/transfers/{transferId}/claims: report an error; GET: the transfer's claims.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.createClaim, async ({ tx, params, body, customer, now }) => ({
    status: 201,
    body: await reportClaim(tx, {
      subscriptionId: customer.subscriptionId,
      transferId: params.transferId,
      type: body.type,
      description: body.description,
      now,
    }),
  })),
  GET: readEndpoint(api.listClaims, async ({ db, params, customer }) => ({
    body: await listClaims(db, { subscriptionId: customer.subscriptionId, transferId: params.transferId }),
  })),
});
