import { index, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/**
 * Sandbox stand-in for the SMS/email provider: the messages the service "sent", readable at
 * GET /v1/sandbox/otp. Only written in sandbox mode; production hands messages to a provider.
 */
export const otpOutbox = pgTable(
  "otp_outbox",
  {
    id: text("id").primaryKey(),
    partnerId: text("partner_id").notNull(),
    identifier: text("identifier").notNull(),
    purpose: text("purpose").notNull(),
    /** The code, or null when the message carried none (already-registered notice). */
    otp: text("otp"),
    message: text("message").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("otp_outbox_lookup_idx").on(t.partnerId, t.identifier, t.createdAt)],
);
