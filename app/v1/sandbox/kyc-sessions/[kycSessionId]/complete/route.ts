import * as api from "@/lib/interface/api/contracts/kyc";
import { DomainError } from "@/lib/platform/errors";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";
import { completeKycSession, lockKycSession } from "@/lib/identity/kyc/outcome";

// POST /v1/sandbox/kyc-sessions/{kycSessionId}/complete: the hosted page's sandbox outcome buttons.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.sandboxCompleteKyc, async ({ tx, params, body, customer, now }) => {
    const session = await lockKycSession(tx, params.kycSessionId);
    if (!session || session.customerId !== customer.customerId) throw new DomainError("kycSession.notFound", { message: "No such KYC session." });
    return { body: await completeKycSession(tx, { session, outcome: body.outcome, now }) };
  }),
});
