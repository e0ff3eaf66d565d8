import * as api from "@/lib/interface/api/contracts/auth";
import { completeRegistration } from "@/lib/identity/auth/registration";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";

// POST /v1/auth/register/set-password: finish registration and log in.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.registerSetPassword, async ({ tx, body, partner, now }) => ({
    body: await completeRegistration(tx, { partnerId: partner.id, ...body, now }),
  })),
});
