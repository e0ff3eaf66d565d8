import * as api from "@/lib/api/contracts/beneficiaries";
import { readBeneficiary } from "@/lib/beneficiaries/manage";
import { endpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";

// GET /v1/core/beneficiaries/{beneficiaryId}: detail with masked payout methods.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: endpoint(api.readBeneficiary, async ({ tx, params, customer }) => ({
    body: await readBeneficiary(tx, { subscriptionId: customer.subscriptionId, beneficiaryId: params.beneficiaryId }),
  })),
});
