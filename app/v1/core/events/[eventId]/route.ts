import * as api from "@/lib/api/contracts/events";
import { readEvent } from "@/lib/events/read";
import { endpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";

// GET /v1/core/events/{eventId}: one event of the subscription, as its webhook carried it.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: endpoint(api.readEvent, async ({ tx, params, customer }) => ({
    body: await readEvent(tx, { subscriptionId: customer.subscriptionId, eventId: params.eventId }),
  })),
});
