import * as api from "@/lib/interface/api/contracts/bank-transfer";
import { DomainError } from "@/lib/platform/errors";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";
import { chooseBankTransfer } from "@/lib/payments/transfers/bank-transfer";
import { lockFundingSession } from "@/lib/payments/transfers/funding";

// POST /v1/sandbox/funding-sessions/{fundingSessionId}/bank-transfer: the customer chooses bank transfer.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.sandboxChooseBankTransfer, async ({ tx, params, customer, now }) => {
    const locked = await lockFundingSession(tx, params.fundingSessionId);
    // Another customer's session answers exactly like a missing one.
    if (!locked || locked.transfer.subscriptionId !== customer.subscriptionId)
      throw new DomainError("fundingSession.notFound", { message: "No such funding session." });
    return { body: await chooseBankTransfer(tx, locked, now) };
  }),
});
