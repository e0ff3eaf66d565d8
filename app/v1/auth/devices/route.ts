import * as api from "@/lib/interface/api/contracts/auth";
import { listDevices } from "@/lib/identity/devices/registration";
import { readEndpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";

// GET /v1/auth/devices: the customer's registered devices.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: readEndpoint(api.listDevices, async ({ db, customer }) => ({ body: { items: await listDevices(db, customer.subscriptionId) } })),
});
