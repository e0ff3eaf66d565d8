import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";
import type { ScreeningEvidence } from "./screening-results";

/** ScreeningCaseState: the states its machine moves (`lib/compliance/screening-cases/state-machine.ts`). */
export const SCREENING_CASE_STATES = ["OPEN", "FALSE_POSITIVE", "TRUE_MATCH"] as const;

export type ScreeningCaseState = (typeof SCREENING_CASE_STATES)[number];

/** One list entry a case is about, with the fingerprint of the entry's content when it was raised. */
export interface CaseEntry {
  list: string;
  entryId: string;
  listVersionId: string | null;
  /** sha256 of the entry's published content: a false positive holds until the entry changes. */
  fingerprint: string;
}

/**
 * A close match waiting for (or decided by) a human: states in
 * lib/compliance/screening-cases/state-machine.ts. Console only: never read by the partner API.
 */
export const screeningCases = pgTable(
  "screening_cases",
  {
    id: text("id").primaryKey(),
    /** customer or beneficiary. */
    subjectType: text("subject_type").$type<"customer" | "beneficiary">().notNull(),
    subjectId: text("subject_id").notNull(),
    /** The customer concerned: the subject itself, or the beneficiary's customer. */
    customerId: text("customer_id").notNull(),
    state: text("state").$type<ScreeningCaseState>().notNull(),
    /** The matched entries the decision covers (one pair of subject and entry each). */
    entries: jsonb("entries").$type<CaseEntry[]>().notNull(),
    /** The screening's evidence for those entries, as the operator saw it. */
    evidence: jsonb("evidence").$type<ScreeningEvidence[]>().notNull(),
    /** Transfers this case put on compliance hold (restored on a false positive). */
    heldTransferIds: jsonb("held_transfer_ids").$type<string[]>().notNull(),
    decidedAt: tstz("decided_at"),
    decidedBy: text("decided_by"),
    decidedByEmail: text("decided_by_email"),
    decisionReason: text("decision_reason"),
    /** TRUE_MATCH: the date the blocked-property report is due (10 business days). */
    blockingReportDueOn: text("blocking_report_due_on"),
    createdAt: createdAt(),
    updatedAt: tstz("updated_at").notNull(),
  },
  (t) => [
    // At most one open case per subject: a later close match adds to it instead of a second one.
    uniqueIndex("screening_cases_open_subject")
      .on(t.subjectType, t.subjectId)
      .where(sql`${t.state} = 'OPEN'`),
    index("screening_cases_subject_idx").on(t.subjectType, t.subjectId),
    index("screening_cases_state_idx").on(t.state, t.createdAt),
  ],
);

/**
 * Something an operator should look at on a customer's console record: the customer
 * tried to pay a BLOCKED or cased beneficiary, or a beneficiary of theirs was confirmed listed.
 * Never returned by the API. One flag per customer, kind and beneficiary.
 */
export const customerFlags = pgTable(
  "customer_flags",
  {
    id: text("id").primaryKey(),
    customerId: text("customer_id").notNull(),
    kind: text("kind").notNull(),
    beneficiaryId: text("beneficiary_id").notNull(),
    caseId: text("case_id"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("customer_flags_key").on(t.customerId, t.kind, t.beneficiaryId)],
);
