import * as api from "@/lib/api/contracts/auth";
import { listDevices } from "@/lib/devices/registration";
import { readEndpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";

// GET /v1/auth/devices: the customer's registered devices.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: readEndpoint(api.listDevices, async ({ db, customer }) => ({ body: { items: await listDevices(db, customer.subscriptionId) } })),
});
