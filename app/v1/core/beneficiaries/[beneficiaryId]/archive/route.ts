import * as api from "@/lib/interface/api/contracts/beneficiaries";
import { archiveBeneficiary } from "@/lib/payments/beneficiaries/manage";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";

// POST /v1/core/beneficiaries/{beneficiaryId}/archive: one-way archive.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.archiveBeneficiary, async ({ tx, params, customer, now }) => ({
    body: await archiveBeneficiary(tx, { subscriptionId: customer.subscriptionId, beneficiaryId: params.beneficiaryId, now }),
  })),
});
