import type { z } from "zod";
import * as api from "@/lib/interface/api/contracts/events";
import { eventsWithCaller, listEvents } from "@/lib/partners/events/read";
import { readEndpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";

/** An event as emit wrote it and the webhook carried it. */
type WireEvent = z.input<typeof api.EventSchema>;

// GET /v1/core/events: the subscription's events in sequence order (type, createdSince, after, limit).
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: readEndpoint(
    api.listEvents,
    async ({ db, query, customer, found }) => ({
      body:
        found ??
        (await listEvents<WireEvent>(db, {
          subscriptionId: customer.subscriptionId,
          types: query.type,
          createdSince: query.createdSince ? new Date(query.createdSince) : undefined,
          after: query.after,
          limit: query.limit,
        })),
    }),
    { withCaller: eventsWithCaller<WireEvent>() },
  ),
});
