import { z } from "zod";
import { payFromWebview } from "@/lib/payments/transfers/funding-webview";
import { webviewAction } from "@/lib/platform/webviews/action";

const Payment = z.discriminatedUnion("method", [
  z.strictObject({
    method: z.literal("CARD"),
    cardNumber: z.string().regex(/^[0-9 ]{12,23}$/),
    expiry: z.string().max(7).optional(),
    cvc: z.string().max(4).optional(),
  }),
  z.strictObject({ method: z.literal("BANK_TRANSFER") }),
]);

// POST /webviews/funding/{token}/pay: the hosted page's payment (sandbox provider).
export const POST = webviewAction(Payment, ({ tx, token, body, now }) =>
  payFromWebview(tx, token, body.method === "CARD" ? { method: "CARD", cardNumber: body.cardNumber } : { method: "BANK_TRANSFER" }, now),
);
