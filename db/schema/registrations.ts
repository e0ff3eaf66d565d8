import { pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";
import { partners } from "./partners";

/** RegistrationState: the states its machine moves (`lib/identity/auth/registration-state-machine.ts`). */
export const REGISTRATION_STATES = ["OTP_SENT", "VERIFIED", "COMPLETED"] as const;

export type RegistrationState = (typeof REGISTRATION_STATES)[number];

/** A registration in progress: identifier, OTP verification, then set-password (decisions section 3). */
export const registrations = pgTable("registrations", {
  id: text("id").primaryKey(),
  partnerId: text("partner_id")
    .notNull()
    .references(() => partners.id),
  identifier: text("identifier").notNull(),
  identifierType: text("identifier_type").notNull(),
  state: text("state").$type<RegistrationState>().notNull(),
  otpId: text("otp_id").notNull(),
  expiresAt: tstz("expires_at").notNull(),
  createdAt: createdAt(),
});
