import type { z } from "zod";
import * as api from "@/lib/interface/api/contracts/events";
import { readEvent } from "@/lib/partners/events/read";
import { readEndpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";

/** An event as emit wrote it and the webhook carried it. */
type WireEvent = z.input<typeof api.EventSchema>;

// GET /v1/core/events/{eventId}: one event of the subscription, as its webhook carried it.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: readEndpoint(api.readEvent, async ({ db, params, customer }) => ({
    body: await readEvent<WireEvent>(db, { subscriptionId: customer.subscriptionId, eventId: params.eventId }),
  })),
});
