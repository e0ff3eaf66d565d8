import { index, pgTable, text } from "drizzle-orm/pg-core";
import { tstz } from "./columns";

/**
 * Failures counted for lockouts: wrong passwords per identifier, bad device assertions per
 * customer and per device. A sliding window counts the rows newer than now - window.
 */
export const failureEvents = pgTable(
  "failure_events",
  {
    id: text("id").primaryKey(),
    /** What is counted, e.g. "login:<partner>:<identifier>" or "assertion:customer:<id>". */
    scope: text("scope").notNull(),
    occurredAt: tstz("occurred_at").notNull(),
  },
  (t) => [index("failure_events_scope_idx").on(t.scope, t.occurredAt)],
);
