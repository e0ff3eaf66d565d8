import * as api from "@/lib/interface/api/contracts/beneficiaries";
import { readBeneficiary } from "@/lib/payments/beneficiaries/manage";
import { beneficiaryDetailWithCaller } from "@/lib/payments/beneficiaries/records";
import { readEndpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";

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
