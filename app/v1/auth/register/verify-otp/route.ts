import * as api from "@/lib/interface/api/contracts/auth";
import { verifyRegistrationOtp } from "@/lib/identity/auth/registration";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";

// POST /v1/auth/register/verify-otp: check the registration code.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.registerVerifyOtp, async ({ tx, body, partner, now }) => ({
    body: await verifyRegistrationOtp(tx, { partnerId: partner.id, ...body, now }),
  })),
});
