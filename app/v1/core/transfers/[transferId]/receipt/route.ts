import * as api from "@/lib/platform/api/contracts/receipts";
import { readEndpoint } from "@/lib/platform/http/endpoint";
import { methods } from "@/lib/platform/http/methods";
import { readReceipt } from "@/lib/payments/receipts/receipt";

// GET /v1/core/transfers/{transferId}/receipt: the receipt from funded on, with a fresh hosted link.
export const { GET, POST, PUT, PATCH, DELETE } = methods({
  GET: readEndpoint(api.readReceipt, async ({ req, db, write, params, customer, now }) => {
    const receipt = await readReceipt(db, write, {
      subscriptionId: customer.subscriptionId,
      transferId: params.transferId,
      acceptLanguage: req.headers.get("accept-language"),
      now,
    });
    return { body: receipt.body, headers: { "content-language": receipt.language, "cache-control": "no-store", vary: "Accept-Language" } };
  }),
});
