import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";

/**
 * OTP messages handed to a real channel (email over SMTP, SMS webhook): one row per message, sent
 * by the `notifications.otpDelivery` job. The code is kept encrypted (FIELD_ENCRYPTION_KEYS) only
 * until the message is sent or given up, so a retry can resend it; operators see FAILED rows.
 */
export const otpDeliveries = pgTable(
  "otp_deliveries",
  {
    id: text("id").primaryKey(),
    partnerId: text("partner_id").notNull(),
    /** EMAIL or SMS. */
    channel: text("channel").notNull(),
    /** The provider implementation chosen at send time (smtp, sms-webhook). */
    provider: text("provider").notNull(),
    recipient: text("recipient").notNull(),
    purpose: text("purpose").notNull(),
    language: text("language").notNull(),
    /** Encrypted code; null when the message carries none, and once the row is SENT or FAILED. */
    codeEncrypted: text("code_encrypted"),
    /** PENDING, SENT or FAILED (the job gave up). */
    state: text("state").notNull(),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    createdAt: createdAt(),
    sentAt: tstz("sent_at"),
    failedAt: tstz("failed_at"),
  },
  (t) => [index("otp_deliveries_state_idx").on(t.state, t.createdAt)],
);
