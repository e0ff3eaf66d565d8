import * as api from "@/lib/platform/api/contracts/auth";
import { listDevices } from "@/lib/identity/devices/registration";
import { readEndpoint } from "@/lib/platform/http/endpoint";
import { methods } from "@/lib/platform/http/methods";

// GET /v1/auth/devices: the customer's registered devices.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: readEndpoint(api.listDevices, async ({ db, customer }) => ({ body: { items: await listDevices(db, customer.subscriptionId) } })),
});
