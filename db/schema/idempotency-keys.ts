import { integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";

/** Idempotency-Key store (decisions section 8): scope is the subscription, kept at least 24 hours. */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    /** The subscription (or partner, for calls without a customer). */
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of method, path and body: a different request under the same key conflicts. */
    fingerprint: text("fingerprint").notNull(),
    state: text("state").$type<"running" | "done">().notNull(),
    /** While running: after this another request may take the key over (the first one died). */
    lockedUntil: tstz("locked_until").notNull(),
    responseStatus: integer("response_status"),
    /** The exact response bytes, replayed byte for byte. */
    responseBody: text("response_body"),
    expiresAt: tstz("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] })],
);
