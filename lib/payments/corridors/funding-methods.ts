/**
 * How a customer pays for a transfer on the hosted funding page (spec 2.8): a leaf module, read by
 * the corridor schema (a corridor's fundingMethods), the funding page and its client component.
 */
export const FUNDING_METHODS = ["CARD", "BANK_TRANSFER"] as const;
export type FundingMethod = (typeof FUNDING_METHODS)[number];
