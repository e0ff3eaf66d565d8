import * as api from "@/lib/api/contracts/transfers";
import { DomainError } from "@/lib/errors";
import { endpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";
import { completeFunding, lockFundingSession } from "@/lib/transfers/funding";

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
