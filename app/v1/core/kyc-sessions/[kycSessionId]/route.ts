import * as api from "@/lib/interface/api/contracts/kyc";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";
import { readKycSession } from "@/lib/identity/kyc/sessions";

// GET /v1/core/kyc-sessions/{kycSessionId}: the session's lifecycle.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: endpoint(api.readKycSession, async ({ tx, params, customer, now }) => ({
    body: await readKycSession(tx, { customerId: customer.customerId, kycSessionId: params.kycSessionId, now }),
  })),
});
