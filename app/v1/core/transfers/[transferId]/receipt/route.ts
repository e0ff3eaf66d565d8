import * as api from "@/lib/interface/api/contracts/receipts";
import { readEndpoint } from "@/lib/interface/http/endpoint";
import { methods } from "@/lib/interface/http/methods";
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
