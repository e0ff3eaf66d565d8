import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";
import type { RuleSetDocument } from "@/lib/compliance/monitoring/rule-set";
import type { RuleSetState } from "@/lib/compliance/monitoring/state-machine";
import type { AggregateValues, BacktestSummary, FiredRule, MonitoringMode, MonitoringOutcome, TypologyScore } from "@/lib/compliance/monitoring/types";

/**
 * Transaction-monitoring rule sets: a versioned document (lib/compliance/monitoring/rule-set.ts),
 * drafted by one operator and activated by another; states in lib/compliance/monitoring/state-machine.ts.
 * Console only: never read by the partner API.
 */
export const monitoringRuleSets = pgTable(
  "monitoring_rule_sets",
  {
    id: text("id").primaryKey(),
    version: integer("version").notNull(),
    state: text("state").$type<RuleSetState>().notNull(),
    document: jsonb("document").$type<RuleSetDocument>().notNull(),
    /** Why this version (the author's note). */
    note: text("note").notNull(),
    /** Operator id, or "system" for the shipped default pack. */
    authorId: text("author_id").notNull(),
    authorEmail: text("author_email").notNull(),
    activatedById: text("activated_by_id"),
    activatedByEmail: text("activated_by_email"),
    activatedAt: tstz("activated_at"),
    retiredAt: tstz("retired_at"),
    /** The latest backtest over the last 30 days (lib/compliance/monitoring/backtest.ts). */
    backtest: jsonb("backtest").$type<BacktestSummary>(),
    createdAt: createdAt(),
    updatedAt: tstz("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("monitoring_rule_sets_version_idx").on(t.version),
    // One live set: the fast-check reads it by this index.
    uniqueIndex("monitoring_rule_sets_active_idx")
      .on(t.state)
      .where(sql`${t.state} = 'active'`),
    index("monitoring_rule_sets_state_idx").on(t.state),
  ],
);

/**
 * One evaluation of a transfer by one rule set at its fast-check: what was read, what fired, the
 * outcome and whether it acted (mode). The live set's evaluation and any shadow-run set's sit side
 * by side. Console only.
 */
export const monitoringEvaluations = pgTable(
  "monitoring_evaluations",
  {
    id: text("id").primaryKey(),
    transferId: text("transfer_id").notNull(),
    customerId: text("customer_id").notNull(),
    partnerId: text("partner_id").notNull(),
    ruleSetId: text("rule_set_id").notNull(),
    ruleSetVersion: integer("rule_set_version").notNull(),
    /** enforce: the outcome acted; shadow: recorded only (a shadow partner, or a set shadow-running beside the live one). */
    mode: text("mode").$type<MonitoringMode>().notNull(),
    /** live: the active set's evaluation; candidate: a set shadow-running beside it (never acts). */
    run: text("run").$type<"live" | "candidate">().notNull(),
    outcome: text("outcome").$type<MonitoringOutcome>().notNull(),
    fired: jsonb("fired").$type<FiredRule[]>().notNull(),
    typologies: jsonb("typologies").$type<TypologyScore[]>().notNull(),
    aggregates: jsonb("aggregates").$type<AggregateValues>().notNull(),
    /** Rules that held but were suppressed for this customer (snoozed). */
    suppressed: jsonb("suppressed").$type<string[]>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("monitoring_evaluations_transfer_idx").on(t.transferId), index("monitoring_evaluations_created_idx").on(t.createdAt)],
);

/** A rule snoozed for one customer until expiry, with the operator's reason (Marble's snooze). */
export const monitoringSuppressions = pgTable(
  "monitoring_suppressions",
  {
    id: text("id").primaryKey(),
    customerId: text("customer_id").notNull(),
    ruleId: text("rule_id").notNull(),
    reason: text("reason").notNull(),
    expiresAt: tstz("expires_at").notNull(),
    createdById: text("created_by_id").notNull(),
    createdByEmail: text("created_by_email").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("monitoring_suppressions_customer_idx").on(t.customerId, t.expiresAt)],
);
