import * as api from "@/lib/interface/api/contracts/auth";
import { startDeviceRegistration } from "@/lib/identity/devices/registration";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";

// POST /v1/auth/device-registration/start: a challenge for the device key to sign.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.deviceRegistrationStart, async ({ tx, customer, now }) => ({
    body: await startDeviceRegistration(tx, { subscriptionId: customer.subscriptionId, now }),
  })),
});
