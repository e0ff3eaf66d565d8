import * as api from "@/lib/platform/api/contracts/beneficiaries";
import { readBeneficiary } from "@/lib/payments/beneficiaries/manage";
import { beneficiaryDetailWithCaller } from "@/lib/payments/beneficiaries/records";
import { readEndpoint } from "@/lib/platform/http/endpoint";
import { methods } from "@/lib/platform/http/methods";

// GET /v1/core/beneficiaries/{beneficiaryId}: detail with masked payout methods.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: readEndpoint(
    api.readBeneficiary,
    async ({ db, params, customer, found }) => ({
      body: await readBeneficiary(db, { subscriptionId: customer.subscriptionId, beneficiaryId: params.beneficiaryId }, found),
    }),
    { withCaller: beneficiaryDetailWithCaller },
  ),
});
