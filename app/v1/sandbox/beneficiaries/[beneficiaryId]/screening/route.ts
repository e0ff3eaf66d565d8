import * as api from "@/lib/interface/api/contracts/beneficiaries";
import { beneficiaryInScope, beneficiaryView, transitionBeneficiary } from "@/lib/payments/beneficiaries/records";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";

const SCREENING = { VALID: "screening.valid", MONITORED: "screening.monitored", BLOCKED: "screening.blocked" } as const;

// POST /v1/sandbox/beneficiaries/{beneficiaryId}/screening: force the screening result (an operator decision once decided).
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.sandboxScreening, async ({ tx, params, body, customer, now }) => {
    const row = await beneficiaryInScope(tx, customer.subscriptionId, params.beneficiaryId, true);
    const updated =
      row.state === "PENDING"
        ? await transitionBeneficiary(tx, row, SCREENING[body.outcome], now)
        : await transitionBeneficiary(tx, row, "operator.decide", now, { target: body.outcome });
    return { body: await beneficiaryView(tx, updated) };
  }),
});
