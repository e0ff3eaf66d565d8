import { bigint, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";

/** Event types of decisions section 9 (events.event_type). */
export const EVENT_TYPES = [
  "customer.status.changed",
  "transfer.state.changed",
  "beneficiary.state.changed",
  "refund.completed",
  "refund.failed",
  "claim.status.changed",
  "payout.repair.required",
  "payout.repaired",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** An event to write: the unit of work's `events.emit` effect and lib/partners/events/emit.ts. */
export interface EmitInput {
  subscriptionId: string;
  eventType: EventType;
  data: Record<string, unknown>;
  now: Date;
}

/**
 * Events for partners (decisions section 9), numbered per subscription. Written in the same
 * transaction as the change they describe; delivered in sequence order by the webhook job.
 */
export const events = pgTable(
  "events",
  {
    id: text("id").primaryKey(),
    partnerId: text("partner_id").notNull(),
    subscriptionId: text("subscription_id").notNull(),
    sequence: bigint("sequence", { mode: "number" }).notNull(),
    eventType: text("event_type").notNull(),
    /** The exact JSON body delivered (its bytes are what the signature covers). */
    body: jsonb("body").$type<Record<string, unknown>>().notNull(),
    /** pending, delivered, undeliverable (no endpoint when due) or failed (retries exhausted; replayable). */
    deliveryState: text("delivery_state").$type<"pending" | "delivered" | "undeliverable" | "failed">().notNull().default("pending"),
    deliveredAt: tstz("delivered_at"),
    occurredAt: tstz("occurred_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("events_subscription_sequence_idx").on(t.subscriptionId, t.sequence),
    // The delivery job takes the oldest pending event of a subscription.
    index("events_pending_idx").on(t.subscriptionId, t.deliveryState, t.sequence),
    index("events_partner_idx").on(t.partnerId, t.occurredAt),
    // The purge job (lib/partners/events/purge.ts) drops events past their retention by age.
    index("events_occurred_idx").on(t.occurredAt),
  ],
);
