import { customType, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { kycSessions } from "./kyc-sessions";

/**
 * The pictures a KYC session may hold. DOCUMENT is the photo page (a passport's, an identity card's front), DOCUMENT_BACK an
 * identity card's back (its machine-readable zone), SELFIE and SELFIE_TURN the two selfies of the
 * face match and its liveness step (the second with the head turned).
 */
export const KYC_PHOTO_KINDS = ["DOCUMENT", "DOCUMENT_BACK", "SELFIE", "SELFIE_TURN"] as const;

export type KycPhotoKind = (typeof KYC_PHOTO_KINDS)[number];

/** PostgreSQL bytea (drizzle 0.45 has no built-in); PGlite gives a Uint8Array, postgres.js a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});

/**
 * The pictures of a KYC session, kept when a verifier other than the sandbox buttons decides
 * (operator, automatic, vendor): the document's photo page, an identity card's back, a selfie and
 * a second selfie with the head turned (lib/identity/kyc/photo-kinds.ts). One of each kind per session; a
 * new upload before submission replaces it.
 */
export const kycPhotos = pgTable(
  "kyc_photos",
  {
    kycSessionId: text("kyc_session_id")
      .notNull()
      .references(() => kycSessions.id),
    kind: text("kind").$type<KycPhotoKind>().notNull().default("DOCUMENT"),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    bytes: bytea("bytes").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: "kyc_photos_pkey", columns: [t.kycSessionId, t.kind] })],
);
