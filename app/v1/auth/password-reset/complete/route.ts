import * as api from "@/lib/interface/api/contracts/auth";
import { completePasswordReset } from "@/lib/identity/auth/password-reset";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";

// POST /v1/auth/password-reset/complete: set a new password with the code.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.passwordResetComplete, async ({ tx, body, partner, now }) => {
    await completePasswordReset(tx, { partnerId: partner.id, ...body, now });
    return { body: { status: "PASSWORD_RESET" as const } };
  }),
});
