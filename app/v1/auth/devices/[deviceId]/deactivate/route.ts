import * as api from "@/lib/interface/api/contracts/auth";
import { deactivateDevice } from "@/lib/identity/devices/registration";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";

// POST /v1/auth/devices/{deviceId}/deactivate: stop a device from confirming transfers.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.deactivateDevice, async ({ tx, params, customer, now }) => ({
    body: await deactivateDevice(tx, { subscriptionId: customer.subscriptionId, deviceId: params.deviceId, now }),
  })),
});
