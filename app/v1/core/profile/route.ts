import * as api from "@/lib/interface/api/contracts/profile";
import { profileWithCaller, readProfile, submitProfile } from "@/lib/identity/customers/profile";
import { endpoint, readEndpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";

// POST /v1/core/profile: submit or update (while PENDING) the profile. GET: read it.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.submitProfile, async ({ tx, body, customer, now }) => ({
    body: await submitProfile(tx, { customerId: customer.customerId, profile: body, now }),
  })),
  GET: readEndpoint(
    api.readProfile,
    async ({ db, customer, found }) => ({
      body: found ?? (await readProfile(db, { customerId: customer.customerId, subscriptionId: customer.subscriptionId })),
    }),
    { withCaller: profileWithCaller },
  ),
});
