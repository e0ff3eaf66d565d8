import * as api from "@/lib/interface/api/contracts/payout-files";
import { endpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";
import { sandboxPayoutDocument } from "@/lib/payments/payouts/sandbox";

// POST /v1/sandbox/payout-files.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  POST: endpoint(api.sandboxPayoutFiles, async ({ tx, partner, now }) => ({ body: await sandboxPayoutDocument(tx, partner.id, now) })),
});
