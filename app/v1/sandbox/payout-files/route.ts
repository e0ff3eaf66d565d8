import * as api from "@/lib/api/contracts/payout-files";
import { endpoint } from "@/lib/http/endpoint";
import { methods } from "@/lib/http/methods";
import { sandboxPayoutDocument } from "@/lib/payouts/sandbox";

// POST /v1/sandbox/payout-files.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.sandboxPayoutFiles, async ({ tx, partner, now }) => ({ body: await sandboxPayoutDocument(tx, partner.id, now) })),
});
