/** A beneficiary's relationship to the customer (spec 2.4): a leaf module, so the schema can type its column. */
export const RELATIONSHIPS = ["FAMILY", "SELF", "FRIEND", "BUSINESS", "OTHER"] as const;
export type Relationship = (typeof RELATIONSHIPS)[number];
