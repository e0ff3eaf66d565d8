import * as api from "@/lib/interface/api/contracts/transfers";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";
import { applySandboxAction } from "@/lib/interface/sandbox/transfer-actions";

// POST /v1/sandbox/transfers/{transferId}/advance (decisions section 7).
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.sandboxAdvance, async ({ tx, params, body, customer, now }) => ({
    body: await applySandboxAction(tx, {
      subscriptionId: customer.subscriptionId,
      transferId: params.transferId,
      action: { kind: "advance", to: body.to },
      now,
    }),
  })),
});
