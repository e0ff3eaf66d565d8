/**
 * A beneficiary's relationship to the customer (spec 2.4), declared beside its column
 * (db/schema/beneficiaries.ts).
 */
export { RELATIONSHIPS, type Relationship } from "@/db/schema/beneficiaries";
