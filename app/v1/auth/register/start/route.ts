import * as api from "@/lib/interface/api/contracts/auth";
import { startRegistration } from "@/lib/identity/auth/registration";
import { endpoint } from "@/lib/interface/http/endpoint";
import { chooseLanguage } from "@/lib/platform/i18n/language";
import { clientAddressOf } from "@/lib/identity/lockouts/client-address";
import { methods } from "@/lib/interface/http/methods";

// POST /v1/auth/register/start: send a one-time code to a new identifier.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.registerStart, async ({ req, tx, body, partner, now }) => ({
    body: await startRegistration(tx, {
      partnerId: partner.id,
      identifier: body.identifier,
      clientAddress: clientAddressOf(req.headers.get("x-forwarded-for")),
      language: chooseLanguage(req.headers.get("accept-language")),
      now,
    }),
  })),
});
