/**
 * What the customer enters in the KYC webview, as the kyc_sessions.capture column keeps it. A leaf
 * module with no imports: the webview's form (a browser bundle) reads its value lists too.
 */

/** An identity document (purposes NEW, RESUME, RESUBMISSION). */
export interface KycDocumentCapture {
  documentType: "PASSPORT" | "ID_CARD" | "DRIVING_LICENCE";
  documentNumber: string;
  issuingCountry: string;
  expiryDate: string;
  photo: { size: number; type: string };
}

/** Where the customer's money comes from (asked at the step-up to tier 2). */
export const SOURCES_OF_FUNDS = ["EMPLOYMENT", "SAVINGS", "BUSINESS", "PENSION", "INVESTMENTS", "INHERITANCE_OR_GIFT", "OTHER"] as const;

/** Annual income, in bands (USD equivalent; the band, never the figure, is asked). */
export const ANNUAL_INCOME_BANDS = ["UNDER_25K", "25K_50K", "50K_100K", "100K_250K", "OVER_250K"] as const;

/** The supporting document the photo shows. */
export const SUPPORTING_DOCUMENT_TYPES = ["PAYSLIP", "BANK_STATEMENT", "TAX_RETURN", "BUSINESS_ACCOUNTS", "OTHER"] as const;

/** Source-of-funds evidence (purpose ENHANCED): an operator's approval moves the customer to tier 2. */
export interface KycEvidenceCapture {
  sourceOfFunds: (typeof SOURCES_OF_FUNDS)[number];
  annualIncomeBand: (typeof ANNUAL_INCOME_BANDS)[number];
  supportingDocumentType: (typeof SUPPORTING_DOCUMENT_TYPES)[number];
  photo: { size: number; type: string };
}

export type KycCapture = KycDocumentCapture | KycEvidenceCapture;
