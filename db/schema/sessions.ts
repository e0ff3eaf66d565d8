import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";
import { subscriptions } from "./subscriptions";

/** TokenState: the states its machine moves (`lib/identity/auth/session-state-machine.ts`). */
export const TOKEN_STATES = ["active", "rotated", "revoked"] as const;

export type TokenState = (typeof TOKEN_STATES)[number];

/**
 * One issued token pair. Refresh rotates: the old row becomes "rotated" and a new row joins the
 * same family; presenting a rotated refresh token revokes the family (decisions section 3).
 */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    subscriptionId: text("subscription_id")
      .notNull()
      .references(() => subscriptions.id),
    partnerId: text("partner_id").notNull(),
    familyId: text("family_id").notNull(),
    /** SHA-256 of the access token; tokens themselves are never stored. */
    accessTokenHash: text("access_token_hash").notNull(),
    refreshTokenHash: text("refresh_token_hash").notNull(),
    accessExpiresAt: tstz("access_expires_at").notNull(),
    refreshExpiresAt: tstz("refresh_expires_at").notNull(),
    /** active, rotated or revoked (lib/identity/auth/session-state-machine.ts). */
    state: text("state").$type<TokenState>().notNull(),
    createdAt: createdAt(),
    revokedAt: tstz("revoked_at"),
  },
  (t) => [
    // Every Core API call resolves its bearer token by hash.
    uniqueIndex("sessions_access_hash_idx").on(t.accessTokenHash),
    uniqueIndex("sessions_refresh_hash_idx").on(t.refreshTokenHash),
    index("sessions_family_idx").on(t.familyId),
    index("sessions_subscription_idx").on(t.subscriptionId),
  ],
);
