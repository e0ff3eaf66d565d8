import * as api from "@/lib/api/contracts/auth";
import { deactivateDevice } from "@/lib/devices/registration";
import { endpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";

// POST /v1/auth/devices/{deviceId}/deactivate: stop a device from confirming transfers.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.deactivateDevice, async ({ tx, params, customer, now }) => ({
    body: await deactivateDevice(tx, { subscriptionId: customer.subscriptionId, deviceId: params.deviceId, now }),
  })),
});
