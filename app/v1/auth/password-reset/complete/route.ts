import * as api from "@/lib/api/contracts/auth";
import { completePasswordReset } from "@/lib/auth/password-reset";
import { endpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";

// POST /v1/auth/password-reset/complete: set a new password with the code.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.passwordResetComplete, async ({ tx, body, partner, now }) => {
    await completePasswordReset(tx, { partnerId: partner.id, ...body, now });
    return { body: { status: "PASSWORD_RESET" as const } };
  }),
});
