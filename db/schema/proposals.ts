import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, tstz } from "./columns";

/** ProposalState: the states its machine moves (`lib/operations/dual-control/state-machine.ts`). */
export const PROPOSAL_STATES = ["PROPOSED", "APPROVED", "DECLINED", "LAPSED"] as const;

export type ProposalState = (typeof PROPOSAL_STATES)[number];

/**
 * An operator action waiting for a second operator (dual control): states in
 * lib/operations/dual-control/state-machine.ts, the commands they run in lib/operations/commands. Console only: never
 * read by the partner API. The row keeps what the audit log needs: proposer, approver or decliner,
 * the reason of each, and the subject's state before and after.
 */
export const proposals = pgTable(
  "proposals",
  {
    id: text("id").primaryKey(),
    /** The command's name (lib/operations/commands), e.g. transfer.hold.restore. */
    action: text("action").notNull(),
    subjectType: text("subject_type").notNull(),
    subjectId: text("subject_id").notNull(),
    /** The action's input, as validated by its schema at proposal (and again at approval). */
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    /** One line for the queue, e.g. "Restore transfer trf_... (5,000.00 USD) from hold". */
    summary: text("summary").notNull(),
    reason: text("reason").notNull(),
    state: text("state").$type<ProposalState>().notNull(),
    proposedBy: text("proposed_by").notNull(),
    proposedByEmail: text("proposed_by_email").notNull(),
    /** After this instant an undecided proposal lapses (30 days). */
    lapsesAt: tstz("lapses_at").notNull(),
    decidedBy: text("decided_by"),
    decidedByEmail: text("decided_by_email"),
    decidedAt: tstz("decided_at"),
    decisionReason: text("decision_reason"),
    /** The subject as the proposer saw it, and as the approved action left it. */
    before: jsonb("before").$type<Record<string, unknown>>(),
    after: jsonb("after").$type<Record<string, unknown>>(),
    /**
     * What the proposal would make of the subject (JWKS kids, URLs, limits...),
     * written when proposed so the approver sees before and after before deciding.
     */
    proposed: jsonb("proposed").$type<Record<string, unknown>>(),
    /**
     * A credential the approved action created (a partner API key, a first webhook secret), for the
     * proposer (the operator onboarding the partner) to reveal once: field-encrypted JSON bound to
     * the proposal's id, cleared when revealed. Never shown to the approver.
     */
    secretForProposer: text("secret_for_proposer"),
    createdAt: createdAt(),
  },
  (t) => [
    // One open proposal per action and subject: a second operator proposing the same is told so.
    uniqueIndex("proposals_open_subject")
      .on(t.action, t.subjectType, t.subjectId)
      .where(sql`${t.state} = 'PROPOSED'`),
    index("proposals_state_idx").on(t.state, t.createdAt),
  ],
);
