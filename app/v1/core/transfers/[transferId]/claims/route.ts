import * as api from "@/lib/platform/api/contracts/claims";
import { listClaims, reportClaim } from "@/lib/payments/claims/claims";
import { endpoint, readEndpoint } from "@/lib/platform/http/endpoint";
import { methods } from "@/lib/platform/http/methods";

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
