import * as api from "@/lib/interface/api/contracts/kyc";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";
import { chooseLanguage } from "@/lib/platform/i18n/language";
import { createKycSession } from "@/lib/identity/kyc/sessions";

// POST /v1/core/kyc-sessions: open or resume KYC; the purpose is decided by the service.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.createKycSession, async ({ req, tx, customer, partner, now }) => ({
    body: await createKycSession(tx, {
      customerId: customer.customerId,
      subscriptionId: customer.subscriptionId,
      partner,
      language: chooseLanguage(req.headers.get("accept-language")),
      now,
    }),
  })),
});
