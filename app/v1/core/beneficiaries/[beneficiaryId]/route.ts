import * as api from "@/lib/api/contracts/beneficiaries";
import { readBeneficiary } from "@/lib/beneficiaries/manage";
import { beneficiaryDetailWithCaller } from "@/lib/beneficiaries/records";
import { readEndpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";

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
