import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";

/** The names a rule set may use for aggregates and windows (the functions: ./aggregates.ts). */
export const WINDOWS = ["24h", "7d", "30d"] as const;

export type Window = (typeof WINDOWS)[number];

/** AggregateName (its rules: `lib/compliance/monitoring/aggregate-names.ts`). */
export const AGGREGATE_NAMES = [
  "senderTransferCount",
  "senderTransferSum",
  "senderBandCount",
  "senderBandSum",
  "linkedBandCount",
  "linkedBandSum",
  "beneficiaryTransferSum",
  "destinationDistinctSenders",
  "senderBeneficiariesCreated",
  "senderNewBeneficiariesPaid",
  "customersSharingDevice",
  "customersSharingPhone",
  "customersSharingEmail",
  "customersSharingAddress",
  "senderFundedThenCancelled",
  "beneficiaryPriorTransfers",
] as const;

export type AggregateName = (typeof AGGREGATE_NAMES)[number];

/** Field (its rules: `lib/compliance/monitoring/rule-set.ts`). */
export const FIELDS = [
  /** The transfer's origin amount (decimal string, origin currency). */
  "transfer.originAmount",
  /** The corridor's review threshold, in its origin currency (decisions 7). */
  "corridor.reviewThreshold",
  /** The corridor's destination country, ISO 3166 alpha-2. */
  "destination.country",
  /** Hours since the beneficiary was created (decimal). */
  "beneficiary.ageHours",
  "customer.status",
] as const;

export type Field = (typeof FIELDS)[number];

/** Comparator (its rules: `lib/compliance/monitoring/rule-set.ts`). */
export const COMPARATORS = [">", ">=", "<", "<=", "==", "!="] as const;

export type Comparator = (typeof COMPARATORS)[number];

export type Value =
  | number
  | string
  | { field: Field }
  | { param: string }
  | { aggregate: (typeof AGGREGATE_NAMES)[number]; window?: (typeof WINDOWS)[number]; lower?: Value; upper?: Value }
  | { mul: [Value, Value] };

export type Condition =
  { all: Condition[] } | { any: Condition[] } | { not: Condition } | { cmp: Comparator; left: Value; right: Value } | { in: Value; list: string };

/**
 * A rule set as monitoring_rule_sets.document keeps it: parameters (named decimal strings), lists
 * (named sets of values), rules (a condition and the score it gives) and typologies (weights of
 * rules against a review and an optional block threshold). Validated by RuleSetDocumentSchema in
 * lib/compliance/monitoring/rule-set.ts, whose output type must equal this one.
 */
export interface RuleSetDocument {
  $comment?: string;
  name: string;
  parameters: Record<string, string>;
  lists: Record<string, string[]>;
  rules: { id: string; description: string; when: Condition; score: number }[];
  typologies: { id: string; description: string; rules: Record<string, number>; review: number; block?: number }[];
}

/** RuleSetState: the states its machine moves (`lib/compliance/monitoring/state-machine.ts`). */
export const RULE_SET_STATES = ["draft", "proposed", "shadowing", "active", "retired"] as const;

export type RuleSetState = (typeof RULE_SET_STATES)[number];

/** MonitoringMode (its rules: `lib/compliance/monitoring/types.ts`). */
export const MONITORING_MODES = ["enforce", "shadow"] as const;

/** enforce: a review or block outcome acts on the transfer; shadow: recorded and alerted (marked shadow) only. */
export type MonitoringMode = (typeof MONITORING_MODES)[number];

/** MonitoringOutcome (its rules: `lib/compliance/monitoring/types.ts`). */
export const MONITORING_OUTCOMES = ["pass", "review", "block"] as const;

export type MonitoringOutcome = (typeof MONITORING_OUTCOMES)[number];

/** A rule whose condition held: its score, or suppressed for this customer. */
export interface FiredRule {
  rule: string;
  score: number;
}

export interface TypologyScore {
  typology: string;
  score: number;
  outcome: MonitoringOutcome;
}

/** Aggregate values read for an evaluation, by their display key (e.g. "senderTransferCount(24h)"). */
export type AggregateValues = Record<string, string>;

/** What a draft would have held over the last 30 days, beside what the live set held. */
export interface BacktestSummary {
  ranAt: string;
  from: string;
  transfers: number;
  /** Transfers the draft sends to review or block. */
  wouldHold: number;
  /** Of those, recorded as held (review or block) by the live evaluation at the time. */
  liveHeld: number;
  /** Fired counts per rule of the draft. */
  byRule: Record<string, number>;
  /**
   * Per typology of the draft: the transfers it would hold, and of those, how many an analyst's
   * closed case judged (risk confirmed or false positive): the draft's precision before activation.
   * Absent on summaries kept before it was added.
   */
  byTypology?: Record<string, { held: number; confirmed: number; falsePositive: number }>;
  /** A few transfers where the draft and the live record differ (transfer id, draft outcome, live outcome). */
  differences: { transferId: string; draft: MonitoringOutcome; live: MonitoringOutcome | "none" }[];
}

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
