import * as api from "@/lib/api/contracts/transfers";
import { endpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";
import { listTransfers } from "@/lib/transfers/read";

// GET /v1/core/transfers: summaries, states filter, default window, cursor pagination.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: endpoint(api.listTransfers, async ({ tx, query, customer, now }) => ({
    body: await listTransfers(tx, {
      subscriptionId: customer.subscriptionId,
      states: query.states,
      createdSince: query.createdSince ? new Date(query.createdSince) : undefined,
      limit: query.limit,
      cursor: query.cursor,
      now,
    }),
  })),
});
