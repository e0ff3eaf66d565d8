import * as api from "@/lib/platform/api/contracts/kyc";
import { endpoint } from "@/lib/platform/http/endpoint";
import { methods } from "@/lib/platform/http/methods";
import { readKycSession } from "@/lib/identity/kyc/sessions";

// GET /v1/core/kyc-sessions/{kycSessionId}: the session's lifecycle.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: endpoint(api.readKycSession, async ({ tx, params, customer, now }) => ({
    body: await readKycSession(tx, { customerId: customer.customerId, kycSessionId: params.kycSessionId, now }),
  })),
});
