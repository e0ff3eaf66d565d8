/**
 * The pictures a KYC session may hold (a leaf module: the kyc_photos table types its column with
 * it). DOCUMENT is the photo page (a passport's, an identity card's front), DOCUMENT_BACK an
 * identity card's back (its machine-readable zone), SELFIE and SELFIE_TURN the two selfies of the
 * face match and its liveness step (the second with the head turned).
 */
export const KYC_PHOTO_KINDS = ["DOCUMENT", "DOCUMENT_BACK", "SELFIE", "SELFIE_TURN"] as const;
export type KycPhotoKind = (typeof KYC_PHOTO_KINDS)[number];
