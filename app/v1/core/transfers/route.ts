import * as api from "@/lib/interface/api/contracts/transfers";
import { readEndpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";
import { listTransfers, transferPageWithCaller } from "@/lib/payments/transfers/list";

// GET /v1/core/transfers: summaries, states filter, default window, cursor pagination.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: readEndpoint(
    api.listTransfers,
    async ({ db, write, query, customer, now, found }) => ({
      body: await listTransfers(
        db,
        write,
        {
          subscriptionId: customer.subscriptionId,
          states: query.states,
          createdSince: query.createdSince ? new Date(query.createdSince) : undefined,
          limit: query.limit,
          cursor: query.cursor,
          now,
        },
        found,
      ),
    }),
    { withCaller: transferPageWithCaller },
  ),
});
