import * as api from "@/lib/interface/api/contracts/transfers";
import { DomainError } from "@/lib/platform/errors";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";
import { completeFunding, lockFundingSession } from "@/lib/payments/transfers/funding";

// POST /v1/sandbox/funding-sessions/{fundingSessionId}/complete: what the hosted funding page does.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.sandboxCompleteFunding, async ({ tx, params, body, customer, now }) => {
    const locked = await lockFundingSession(tx, params.fundingSessionId);
    // Another customer's session answers exactly like a missing one.
    if (!locked || locked.transfer.subscriptionId !== customer.subscriptionId)
      throw new DomainError("fundingSession.notFound", { message: "No such funding session." });
    // FAILED is a decline, as on the page: the session stays OPEN until its last allowed decline.
    const { fundingSessionId, sessionState, transferStatus } = await completeFunding(tx, { ...locked, outcome: body.outcome, method: "SANDBOX", now });
    return { body: { fundingSessionId, sessionState, transferStatus } };
  }),
});
