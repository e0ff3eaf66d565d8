import * as api from "@/lib/api/contracts/beneficiaries";
import { archiveBeneficiary } from "@/lib/beneficiaries/manage";
import { endpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";

// POST /v1/core/beneficiaries/{beneficiaryId}/archive: one-way archive.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.archiveBeneficiary, async ({ tx, params, customer, now }) => ({
    body: await archiveBeneficiary(tx, { subscriptionId: customer.subscriptionId, beneficiaryId: params.beneficiaryId, now }),
  })),
});
