import * as api from "@/lib/api/contracts/kyc";
import { endpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";
import { readKycSession } from "@/lib/kyc/sessions";

// GET /v1/core/kyc-sessions/{kycSessionId}: the session's lifecycle.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: endpoint(api.readKycSession, async ({ tx, params, customer, now }) => ({
    body: await readKycSession(tx, { customerId: customer.customerId, kycSessionId: params.kycSessionId, now }),
  })),
});
