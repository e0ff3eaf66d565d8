import { pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";

/** POST /v1/auth/start: an attempt for an identifier, known or not (answers never differ). */
export const loginAttempts = pgTable("login_attempts", {
  id: text("id").primaryKey(),
  partnerId: text("partner_id").notNull(),
  identifier: text("identifier").notNull(),
  /** Null for an identifier nobody registered; login then fails like a wrong password. */
  subscriptionId: text("subscription_id"),
  expiresAt: tstz("expires_at").notNull(),
  usedAt: tstz("used_at"),
  createdAt: createdAt(),
});
