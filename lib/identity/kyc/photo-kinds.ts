/**
 * The pictures a KYC session may hold, declared beside the kyc_photos table (db/schema/kyc-photos.ts).
 */
export { KYC_PHOTO_KINDS, type KycPhotoKind } from "@/db/schema/kyc-photos";
