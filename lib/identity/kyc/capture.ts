/**
 * What the customer enters in the KYC webview: the shapes and value lists are declared beside the
 * kyc_sessions.capture column, in the leaf db/schema/kyc-capture.ts (the webview's form, a browser
 * bundle, reads the lists through this module).
 */
import { type KycEvidenceCapture, type KycCapture } from "@/db/schema/kyc-capture";
export {
  type KycDocumentCapture,
  SOURCES_OF_FUNDS,
  ANNUAL_INCOME_BANDS,
  SUPPORTING_DOCUMENT_TYPES,
  type KycEvidenceCapture,
  type KycCapture,
} from "@/db/schema/kyc-capture";

export const isEvidence = (capture: KycCapture): capture is KycEvidenceCapture => "sourceOfFunds" in capture;
