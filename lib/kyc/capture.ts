/**
 * What the customer enters in the KYC webview. A leaf module: the kyc_sessions table types its
 * capture column with it, so it must not import the database.
 */
export interface KycCapture {
  documentType: "PASSPORT" | "ID_CARD" | "DRIVING_LICENCE";
  documentNumber: string;
  issuingCountry: string;
  expiryDate: string;
  photo: { size: number; type: string };
}
