import * as api from "@/lib/interface/api/contracts/limits";
import { readEndpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";
import { readLimits } from "@/lib/payments/limits/usage";
import { referenceRates } from "@/lib/payments/pricing/rate-store";

// GET /v1/core/limits: the customer's tier and rolling limits.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: readEndpoint(api.readLimits, async ({ db, customer, now }) => ({
    body: await readLimits(db, { subscriptionId: customer.subscriptionId, rates: await referenceRates(db), now }),
  })),
});
