import * as api from "@/lib/api/contracts/auth";
import { startRegistration } from "@/lib/auth/registration";
import { endpoint } from "@/lib/http/endpoint";
import { chooseLanguage } from "@/lib/i18n/language";
import { clientAddressOf } from "@/lib/lockouts/client-address";
import { methods } from "@/lib/http/methods";

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
