import * as api from "@/lib/interface/api/contracts/auth";
import { completeDeviceRegistration } from "@/lib/identity/devices/registration";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";

// POST /v1/auth/device-registration/complete: register the device's public key.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.deviceRegistrationComplete, async ({ tx, body, customer, now }) => ({
    body: await completeDeviceRegistration(tx, { subscriptionId: customer.subscriptionId, ...body, now }),
  })),
});
