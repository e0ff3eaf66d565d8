import * as api from "@/lib/interface/api/contracts/auth";
import { startPasswordReset } from "@/lib/identity/auth/password-reset";
import { endpoint } from "@/lib/interface/http/endpoint";
import { chooseLanguage } from "@/lib/platform/i18n/language";
import { clientAddressOf } from "@/lib/identity/lockouts/client-address";
import { methods } from "@/lib/interface/http/methods";

// POST /v1/auth/password-reset/start: send a reset code if the identifier has an account.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.passwordResetStart, async ({ req, tx, body, partner, now }) => {
    await startPasswordReset(tx, {
      partnerId: partner.id,
      identifier: body.identifier,
      clientAddress: clientAddressOf(req.headers.get("x-forwarded-for")),
      language: chooseLanguage(req.headers.get("accept-language")),
      now,
    });
    return { status: 202 };
  }),
});
