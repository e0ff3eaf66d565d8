/**
 * A beneficiary's residence address, the shape its column keeps (db/schema/beneficiaries.ts).
 */
export { type BeneficiaryAddress } from "@/db/schema/beneficiaries";
