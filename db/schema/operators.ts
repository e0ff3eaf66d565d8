import { index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";

/**
 * An operator's role (operators.role). `auditor`: an examiner's read-only role. An auditor reads
 * every console page, case, report and export, and changes nothing: the console's action wrappers
 * (lib/operations/console/action.ts) and the command runner's role check
 * (lib/operations/commands/perform.ts) refuse them, whatever the action.
 */
export type OperatorRole = "reviewer" | "admin" | "auditor";

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
    /**
     * The TOTP secret (RFC 6238), encrypted like other fields at rest; null until
     * enrolled. Set with totpEnrolledAt once the operator has entered a first code.
     */
    totpSecret: text("totp_secret"),
    totpEnrolledAt: tstz("totp_enrolled_at"),
    /** The last 30-second step a code was accepted for: a code is good once (RFC 6238 section 5.2). */
    totpLastStep: integer("totp_last_step"),
    /** sha256 of each unused recovery code (shown once at enrolment). */
    recoveryCodes: jsonb("recovery_codes").$type<string[]>().notNull().default([]),
    lastSignInAt: tstz("last_sign_in_at"),
    passwordChangedAt: tstz("password_changed_at"),
    /**
     * Raised when the operator is disabled or their password or second factor is reset: a console
     * session carries the value it was signed in with and ends when it differs.
     */
    sessionEpoch: integer("session_epoch").notNull().default(0),
  },
  (t) => [uniqueIndex("operators_email_idx").on(t.email)],
);

/**
 * A one-time link an admin made for another operator: set a new password, or
 * enrol a new second factor. Shown once in the console, never e-mailed; only its sha256 is kept.
 */
export const operatorResetLinks = pgTable(
  "operator_reset_links",
  {
    id: text("id").primaryKey(),
    operatorId: text("operator_id")
      .notNull()
      .references(() => operators.id),
    /** password or totp. */
    kind: text("kind").$type<"password" | "totp">().notNull(),
    tokenHash: text("token_hash").notNull(),
    createdBy: text("created_by").notNull(),
    expiresAt: tstz("expires_at").notNull(),
    usedAt: tstz("used_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("operator_reset_links_token_idx").on(t.tokenHash), index("operator_reset_links_operator_idx").on(t.operatorId)],
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
