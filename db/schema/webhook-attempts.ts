import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { tstz } from "./columns";

/** Every delivery attempt of an event, for the console's delivery log (decisions section 9). */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: text("id").primaryKey(),
    eventId: text("event_id").notNull(),
    partnerId: text("partner_id").notNull(),
    url: text("url").notNull(),
    attemptedAt: tstz("attempted_at").notNull(),
    /** HTTP status, or null when no response came (timeout, refused connection). */
    statusCode: integer("status_code"),
    latencyMs: integer("latency_ms").notNull(),
    /** Short error text (never the secret or the request body). */
    error: text("error"),
  },
  (t) => [index("webhook_attempts_event_idx").on(t.eventId), index("webhook_attempts_partner_idx").on(t.partnerId, t.attemptedAt)],
);
