import * as api from "@/lib/platform/api/contracts/auth";
import { verifyRegistrationOtp } from "@/lib/identity/auth/registration";
import { endpoint } from "@/lib/platform/http/endpoint";
import { methods } from "@/lib/platform/http/methods";

// POST /v1/auth/register/verify-otp: check the registration code.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.registerVerifyOtp, async ({ tx, body, partner, now }) => ({
    body: await verifyRegistrationOtp(tx, { partnerId: partner.id, ...body, now }),
  })),
});
