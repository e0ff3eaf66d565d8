import { customType, integer, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { kycSessions } from "./kyc-sessions";

/** PostgreSQL bytea (drizzle 0.45 has no built-in); PGlite gives a Uint8Array, postgres.js a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});

/**
 * The document photo of a KYC session, kept only when operators decide KYC
 * (KYC_DECISION_PROVIDER=operator): the reviewer looks at it in the console. One per session; a
 * new upload before submission replaces it.
 */
export const kycPhotos = pgTable("kyc_photos", {
  kycSessionId: text("kyc_session_id")
    .primaryKey()
    .references(() => kycSessions.id),
  contentType: text("content_type").notNull(),
  size: integer("size").notNull(),
  bytes: bytea("bytes").notNull(),
  createdAt: createdAt(),
});
