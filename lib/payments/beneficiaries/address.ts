/**
 * A beneficiary's residence address (optional at creation): the spec's StructuredAddress, the
 * shape of the customer's residenceAddress. Payout banks want the creditor's address (pain.002
 * BE04 MissingCreditorAddress, RR03), so when it is known the payout file carries it structured.
 */
export interface BeneficiaryAddress {
  addressLine1: string;
  addressLine2?: string;
  city: string;
  region?: string;
  postalCode?: string;
  /** ISO 3166-1 alpha-3, the beneficiary's countryOfResidence. */
  country: string;
}
