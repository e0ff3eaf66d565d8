import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { beneficiaries } from "./beneficiaries";
import { createdAt, tstz } from "./columns";
import { customers } from "./customers";
import { operators } from "./operators";
import type { ScreeningEvidence } from "./screening-results";
import { screeningCases } from "./screening-cases";
import { transfers } from "./transfers";

/** ReportStatus: the states its machine moves (`lib/compliance/cases/report-state-machine.ts`). */
export const REPORT_STATUSES = ["DRAFTED", "APPROVED", "FILED"] as const;

export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** ComplianceCaseState: the states its machine moves (`lib/compliance/cases/state-machine.ts`). */
export const COMPLIANCE_CASE_STATES = ["OPEN", "INVESTIGATING", "CLOSED"] as const;

export type ComplianceCaseState = (typeof COMPLIANCE_CASE_STATES)[number];

/** CaseOutcome (its rules: `lib/compliance/cases/state-machine.ts`). */
export const CASE_OUTCOMES = ["FALSE_POSITIVE", "RISK_CONFIRMED"] as const;

export type CaseOutcome = (typeof CASE_OUTCOMES)[number];

/**
 * Why a case exists or what it links:
 * - MONITORING_REVIEW / MONITORING_BLOCK: a monitoring evaluation's review or block outcome;
 * - SCREENING_CASE: a screening case opened (a close match) on the customer or a beneficiary;
 * - LIST_HIT: a list update found an existing customer or beneficiary listed (an exact match);
 * - COMPLIANCE_HOLD: a transfer put on compliance hold (spended);
 * - REVIEW_RULE: a transfer sent to onreview by the decisions-7 rules (MONITORED, threshold);
 * - SHADOW_ALERT: a monitoring alert raised in shadow mode (never opens a case);
 * - ANALYST_LINK: a transfer or beneficiary an analyst linked to the case by hand;
 * - PEP_MATCH: PEP screening found the customer on a PEP list (the customer is flagged PEP).
 */
export const ALERT_KINDS = [
  "MONITORING_REVIEW",
  "MONITORING_BLOCK",
  "SCREENING_CASE",
  "LIST_HIT",
  "COMPLIANCE_HOLD",
  "REVIEW_RULE",
  "SHADOW_ALERT",
  "ANALYST_LINK",
  "PEP_MATCH",
] as const;

export type AlertKind = (typeof ALERT_KINDS)[number];

/** Risk flags an analyst sets on a customer's console record (RISK_CONFIRMED also by closing a case so). */
export const RISK_FLAGS = ["RISK_CONFIRMED", "HIGH_RISK", "PEP", "ADVERSE_MEDIA", "EXIT_RECOMMENDED"] as const;

export type RiskFlag = (typeof RISK_FLAGS)[number];

/** Who set a risk flag: an analyst (by hand, or by closing a case) or PEP screening (lib/compliance/cases/pep.ts). */
export const RISK_FLAG_SOURCES = ["analyst", "pep-screening"] as const;

export type RiskFlagSource = (typeof RISK_FLAG_SOURCES)[number];

/**
 * A compliance case: every alert on a customer (a review outcome, a screening
 * case, a list hit, a compliance hold) opens one or joins the customer's open one. States in
 * lib/compliance/cases/state-machine.ts. Console only: never read by the partner API, webhooks or webviews.
 */
export const complianceCases = pgTable(
  "compliance_cases",
  {
    id: text("id").primaryKey(),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id),
    state: text("state").$type<ComplianceCaseState>().notNull(),
    /** Set when CLOSED, by the machine's row. */
    outcome: text("outcome").$type<CaseOutcome>(),
    assigneeId: text("assignee_id").references(() => operators.id),
    assigneeEmail: text("assignee_email"),
    /** When the first alert of the case was raised: the report's clock starts here. */
    detectedAt: tstz("detected_at").notNull(),
    /** The decision's due date (YYYY-MM-DD, UTC): detection + 30 days (docs/decisions.md). */
    dueOn: text("due_on").notNull(),
    /** The analyst's closing narrative. */
    narrative: text("narrative"),
    closedAt: tstz("closed_at"),
    closedBy: text("closed_by"),
    closedByEmail: text("closed_by_email"),
    createdAt: createdAt(),
    updatedAt: tstz("updated_at").notNull(),
  },
  (t) => [
    // One case not yet closed per customer: a later alert joins it (lib/compliance/cases/cases.ts raiseAlert).
    uniqueIndex("compliance_cases_open_customer")
      .on(t.customerId)
      .where(sql`${t.state} <> 'CLOSED'`),
    index("compliance_cases_customer_idx").on(t.customerId, t.createdAt),
    index("compliance_cases_state_due_idx").on(t.state, t.dueOn),
    index("compliance_cases_assignee_idx").on(t.assigneeId, t.state),
  ],
);

/**
 * What a case is about: one alert (its kind, what raised it) or an analyst's link, naming the
 * transfer, beneficiary, screening case or monitoring evaluation concerned. A shadow alert
 * (monitoring in shadow mode) joins the customer's open case if there is one, else stands alone
 * (case_id null): it never opens a case.
 */
export const complianceAlerts = pgTable(
  "compliance_alerts",
  {
    id: text("id").primaryKey(),
    caseId: text("case_id").references(() => complianceCases.id),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id),
    kind: text("kind").$type<AlertKind>().notNull(),
    shadow: boolean("shadow").notNull().default(false),
    transferId: text("transfer_id").references(() => transfers.id),
    beneficiaryId: text("beneficiary_id").references(() => beneficiaries.id),
    screeningCaseId: text("screening_case_id").references(() => screeningCases.id),
    /** A monitoring evaluation's id (its table belongs to lib/compliance/monitoring). */
    evaluationId: text("evaluation_id"),
    summary: text("summary").notNull(),
    /** "system", or the operator's email for a hold or a link made in the console. */
    raisedBy: text("raised_by").notNull(),
    raisedAt: tstz("raised_at").notNull(),
  },
  (t) => [
    index("compliance_alerts_case_idx").on(t.caseId, t.raisedAt),
    index("compliance_alerts_customer_idx").on(t.customerId, t.raisedAt),
    index("compliance_alerts_transfer_idx").on(t.transferId),
  ],
);

/** An analyst's note on a case: append-only (a trigger refuses UPDATE and DELETE). */
export const complianceCaseNotes = pgTable(
  "compliance_case_notes",
  {
    id: text("id").primaryKey(),
    caseId: text("case_id")
      .notNull()
      .references(() => complianceCases.id),
    authorId: text("author_id").notNull(),
    authorEmail: text("author_email").notNull(),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("compliance_case_notes_case_idx").on(t.caseId, t.createdAt)],
);

/**
 * A risk flag on a customer's console record, set by an analyst, by a case closed as risk
 * confirmed, or (PEP) by PEP screening, and cleared by an analyst with a reason. A cleared flag
 * stays as history (a trigger refuses DELETE and any change to a cleared flag); setting the flag
 * again adds a new row. A standing PEP flag is the customer's PEP status (docs/decisions.md, "PEP
 * screening"): until an admin approves it, the customer's transfers wait in review.
 */
export const customerRiskFlags = pgTable(
  "customer_risk_flags",
  {
    id: text("id").primaryKey(),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id),
    flag: text("flag").$type<RiskFlag>().notNull(),
    caseId: text("case_id").references(() => complianceCases.id),
    setByEmail: text("set_by_email").notNull(),
    /** Who set it: "analyst" (by hand or by closing a case) or "pep-screening" (a PEP list match). */
    source: text("source").$type<RiskFlagSource>().notNull().default("analyst"),
    /** PEP screening: the list entries matched (list, entry, version, score), as the analyst reads them. */
    evidence: jsonb("evidence").$type<ScreeningEvidence[]>(),
    /**
     * PEP: an admin's approval of the business relationship (after ENHANCED KYC): who, when, why.
     * Null while it waits; the customer's transfers are held in review until then.
     */
    approvedAt: tstz("approved_at"),
    approvedById: text("approved_by_id"),
    approvedByEmail: text("approved_by_email"),
    approvalReason: text("approval_reason"),
    createdAt: createdAt(),
    clearedAt: tstz("cleared_at"),
    clearedById: text("cleared_by_id"),
    clearedByEmail: text("cleared_by_email"),
    clearReason: text("clear_reason"),
  },
  // One standing flag of a kind per customer; cleared ones are history beside it.
  (t) => [
    uniqueIndex("customer_risk_flags_standing")
      .on(t.customerId, t.flag)
      .where(sql`${t.clearedAt} is null`),
    index("customer_risk_flags_customer_idx").on(t.customerId, t.createdAt),
  ],
);

/** The report's subject as drafted: who the customer was when the case closed. */
export interface ReportSubject {
  customerId: string;
  partnerId: string | null;
  firstName: string | null;
  lastName: string | null;
  dateOfBirth: string | null;
  nationality: string | null;
  residenceCountry: string | null;
  address: string | null;
}

/** One currency's total over the case's linked transfers (decimal strings, never floats). */
export interface ReportAmount {
  currency: string;
  total: string;
  transfers: number;
}

/**
 * A suspicious-activity report, drafted when a case closes as RISK_CONFIRMED
 * and filed with the authority's reference. Statuses in lib/compliance/cases/report-state-machine.ts. Kept
 * at least five years: no code path deletes one, and a trigger refuses DELETE and any change to a
 * FILED report.
 */
export const suspiciousActivityReports = pgTable(
  "suspicious_activity_reports",
  {
    id: text("id").primaryKey(),
    caseId: text("case_id")
      .notNull()
      .references(() => complianceCases.id),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id),
    status: text("status").$type<ReportStatus>().notNull(),
    subject: jsonb("subject").$type<ReportSubject>().notNull(),
    amounts: jsonb("amounts").$type<ReportAmount[]>().notNull(),
    transferIds: jsonb("transfer_ids").$type<string[]>().notNull(),
    /** The first and last activity of the linked transfers (or the alerts when none). */
    activityFrom: tstz("activity_from").notNull(),
    activityTo: tstz("activity_to").notNull(),
    /** The typologies that reached review or block in monitoring, then the kinds of the other alerts (lib/compliance/cases/reports.ts). */
    typologies: jsonb("typologies").$type<string[]>().notNull(),
    narrative: text("narrative").notNull(),
    detectedAt: tstz("detected_at").notNull(),
    /** YYYY-MM-DD: 30 days after detection. */
    dueOn: text("due_on").notNull(),
    authorityReference: text("authority_reference"),
    filedAt: tstz("filed_at"),
    filedByEmail: text("filed_by_email"),
    draftedByEmail: text("drafted_by_email").notNull(),
    /** Every operator (e-mail) who rewrote the narrative: with the drafter, the report's authors, none of whom may approve it. */
    editedByEmails: jsonb("edited_by_emails").$type<string[]>().notNull().default([]),
    /** The second analyst's approval (four eyes): never an author; required before FILED. */
    approvedAt: tstz("approved_at"),
    approvedById: text("approved_by_id"),
    approvedByEmail: text("approved_by_email"),
    createdAt: createdAt(),
    updatedAt: tstz("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("suspicious_activity_reports_case_idx").on(t.caseId),
    index("suspicious_activity_reports_status_due_idx").on(t.status, t.dueOn),
    index("suspicious_activity_reports_customer_idx").on(t.customerId),
  ],
);
