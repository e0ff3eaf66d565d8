import { index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";

/** People who run the console. reviewer: queues; admin: also customers, partners, operators. */
export const operators = pgTable(
  "operators",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    role: text("role").notNull(),
    /** argon2id. */
    passwordHash: text("password_hash").notNull(),
    disabledAt: tstz("disabled_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("operators_email_idx").on(t.email)],
);

/**
 * Every operator action: who, when, what, before and after, why. Append-only: a trigger in the
 * migrations refuses UPDATE and DELETE.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: text("id").primaryKey(),
    operatorId: text("operator_id").notNull(),
    operatorEmail: text("operator_email").notNull(),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    before: jsonb("before").$type<Record<string, unknown>>(),
    after: jsonb("after").$type<Record<string, unknown>>(),
    reason: text("reason"),
    at: tstz("at").notNull(),
  },
  // The console filters by time, operator, action and target.
  (t) => [index("audit_log_at_idx").on(t.at), index("audit_log_target_idx").on(t.targetType, t.targetId)],
);
