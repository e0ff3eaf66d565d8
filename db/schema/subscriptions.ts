import { bigint, index, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";
import { customers } from "./customers";
import { partners } from "./partners";

/**
 * The partner-customer relationship status (spec 3.5).
 */
export const SUBSCRIPTION_STATUSES = ["active", "spended", "closed"] as const;

export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** The partner-customer relationship: the login account a partner's customer uses (spec 2.9 SubscriptionStatus). */
export const subscriptions = pgTable(
  "subscriptions",
  {
    id: text("id").primaryKey(),
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.id),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id),
    /** active, spended (suspended) or closed. */
    status: text("status").$type<SubscriptionStatus>().notNull().default("active"),
    /** argon2id hash; null until set-password. */
    passwordHash: text("password_hash"),
    /** Last event sequence number emitted for this subscription (webhook ordering). */
    eventSequence: bigint("event_sequence", { mode: "number" }).notNull().default(0),
    createdAt: createdAt(),
    updatedAt: tstz("updated_at").notNull(),
  },
  (t) => [index("subscriptions_customer_idx").on(t.customerId), index("subscriptions_partner_idx").on(t.partnerId)],
);
