import { z } from "zod";
import { captureKycDocuments } from "@/lib/kyc/webview";
import { webviewAction } from "@/lib/webviews/action";

const Capture = z.strictObject({
  documentType: z.enum(["PASSPORT", "ID_CARD", "DRIVING_LICENCE"]),
  documentNumber: z
    .string()
    .trim()
    .min(4)
    .max(30)
    .regex(/^[A-Za-z0-9-]+$/),
  issuingCountry: z.string().regex(/^[A-Z]{3}$/),
  expiryDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  // The sandbox accepts the photo without inspecting it: the page sends its size and type only.
  photo: z.strictObject({
    size: z
      .number()
      .int()
      .positive()
      .max(10 * 1024 * 1024),
    type: z.string().regex(/^image\//),
  }),
});

// POST /webviews/kyc/{token}/capture: the hosted page's document capture.
export const POST = webviewAction(Capture, ({ tx, token, body, now }) => captureKycDocuments(tx, token, body, now));
