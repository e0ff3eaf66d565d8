import { sql } from "drizzle-orm";
import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";

/**
 * An operations incident (lib/operations/observability/alerts.ts): one alert condition true for one subject (a
 * job kind, a partner, a sanctions list, or none) from when it was first seen until it was seen
 * false. Open while resolved_at is null. Each channel's notice of the opening and of the
 * resolution is recorded when sent, so each goes out once per incident (a failed send is retried
 * at the next evaluation).
 */
export const operationsIncidents = pgTable(
  "operations_incidents",
  {
    id: text("id").primaryKey(),
    /** The alert condition's name (lib/operations/observability/alert-conditions.ts). */
    condition: text("condition").notNull(),
    /** What it is about: a job kind, partner id, list or source; "" when the condition has one subject. */
    subject: text("subject").notNull(),
    /** What was seen when it opened (counts, ages), for the operator. */
    summary: text("summary").notNull(),
    openedAt: tstz("opened_at").notNull(),
    resolvedAt: tstz("resolved_at"),
    openingWebhookSentAt: tstz("opening_webhook_sent_at"),
    openingEmailSentAt: tstz("opening_email_sent_at"),
    resolutionWebhookSentAt: tstz("resolution_webhook_sent_at"),
    resolutionEmailSentAt: tstz("resolution_email_sent_at"),
    createdAt: createdAt(),
  },
  (t) => [
    // One open incident per condition and subject.
    uniqueIndex("operations_incidents_open_idx")
      .on(t.condition, t.subject)
      .where(sql`${t.resolvedAt} is null`),
    index("operations_incidents_opened_idx").on(t.openedAt),
  ],
);
