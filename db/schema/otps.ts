import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";

/** One-time passcodes, stored hashed; 6 digits, 10 minutes, 5 tries (decisions section 3). */
export const otps = pgTable(
  "otps",
  {
    id: text("id").primaryKey(),
    partnerId: text("partner_id").notNull(),
    identifier: text("identifier").notNull(),
    /** REGISTRATION or PASSWORD_RESET. */
    purpose: text("purpose").notNull(),
    /** Null when no code was sent (identifier already registered: the message says so instead). */
    codeHash: text("code_hash"),
    failedAttempts: integer("failed_attempts").notNull().default(0),
    expiresAt: tstz("expires_at").notNull(),
    consumedAt: tstz("consumed_at"),
    createdAt: createdAt(),
  },
  // Password reset finds the latest code for an identifier.
  (t) => [index("otps_lookup_idx").on(t.partnerId, t.identifier, t.purpose, t.createdAt)],
);
