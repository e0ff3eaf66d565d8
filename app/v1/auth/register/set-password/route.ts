import * as api from "@/lib/platform/api/contracts/auth";
import { completeRegistration } from "@/lib/identity/auth/registration";
import { endpoint } from "@/lib/platform/http/endpoint";
import { methods } from "@/lib/platform/http/methods";

// POST /v1/auth/register/set-password: finish registration and log in.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.registerSetPassword, async ({ tx, body, partner, now }) => ({
    body: await completeRegistration(tx, { partnerId: partner.id, ...body, now }),
  })),
});
