import { z } from "zod";
import { ANNUAL_INCOME_BANDS, SOURCES_OF_FUNDS, SUPPORTING_DOCUMENT_TYPES } from "@/lib/identity/kyc/capture";
import { captureKycDocuments } from "@/lib/identity/kyc/webview";
import { webviewAction } from "@/lib/platform/webviews/action";

// The sandbox accepts the photo without inspecting it: the page sends its size and type only.
const Photo = z.strictObject({
  size: z
    .number()
    .int()
    .positive()
    .max(10 * 1024 * 1024),
  type: z.string().regex(/^image\//),
});

const DocumentCapture = z.strictObject({
  documentType: z.enum(["PASSPORT", "ID_CARD", "DRIVING_LICENCE"]),
  documentNumber: z
    .string()
    .trim()
    .min(4)
    .max(30)
    .regex(/^[A-Za-z0-9-]+$/),
  issuingCountry: z.string().regex(/^[A-Z]{3}$/),
  expiryDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  photo: Photo,
});

// The step-up (purpose ENHANCED): source of funds, income band and a supporting document.
const EvidenceCapture = z.strictObject({
  sourceOfFunds: z.enum(SOURCES_OF_FUNDS),
  annualIncomeBand: z.enum(ANNUAL_INCOME_BANDS),
  supportingDocumentType: z.enum(SUPPORTING_DOCUMENT_TYPES),
  photo: Photo,
});

const Capture = z.union([DocumentCapture, EvidenceCapture]);

// POST /webviews/kyc/{token}/capture: the hosted page's document capture.
export const POST = webviewAction(Capture, ({ tx, token, body, now }) => captureKycDocuments(tx, token, body, now));
