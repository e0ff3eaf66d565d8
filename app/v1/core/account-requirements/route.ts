import * as api from "@/lib/interface/api/contracts/account-requirements";
import { validationError } from "@/lib/platform/errors";
import { readEndpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";
import { accountRequirements } from "@/lib/payments/payout-identifiers/account-requirements";
import { refreshVersions } from "@/lib/payments/corridors/versions";
import { referenceRates } from "@/lib/payments/pricing/rate-store";

// GET /v1/core/account-requirements: what a payout needs per destination country, currency and method.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: readEndpoint(api.readAccountRequirements, async ({ db, query, now }) => {
    // The configuration version in force (its requirements, when it has its own), loaded if this process lacks it.
    await refreshVersions(db);
    const found = await accountRequirements(query, { rates: () => referenceRates(db), now });
    if (!found)
      throw validationError([
        { field: "method", code: "validation.methodNotAvailableForCorridor", message: "No corridor pays this country, currency and method." },
      ]);
    return { body: found };
  }),
});
