import * as api from "@/lib/interface/api/contracts/beneficiaries";
import { createBeneficiary, listBeneficiaries } from "@/lib/payments/beneficiaries/manage";
import { endpoint, readEndpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";

// POST /v1/core/beneficiaries: create (202, PENDING). GET: list, most recently used first.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.createBeneficiary, async ({ tx, body, customer, now }) => ({
    body: await createBeneficiary(tx, { subscriptionId: customer.subscriptionId, beneficiary: body, now }),
  })),
  GET: readEndpoint(api.listBeneficiaries, async ({ db, query, customer }) => ({
    body: await listBeneficiaries(db, { subscriptionId: customer.subscriptionId, states: query.states, limit: query.limit, cursor: query.cursor }),
  })),
});
