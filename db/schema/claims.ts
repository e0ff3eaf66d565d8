import { index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, decimalFormat, tstz } from "./columns";
import { subscriptions } from "./subscriptions";
import { transfers } from "./transfers";

/** ClaimStatus: the states its machine moves (`lib/payments/claims/state-machine.ts`). */
export const CLAIM_STATUSES = ["OPEN", "INVESTIGATING", "RESOLVED"] as const;

export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/** ClaimType (its rules: `lib/payments/claims/state-machine.ts`). */
export const CLAIM_TYPES = ["NOT_RECEIVED", "WRONG_AMOUNT", "LATE", "OTHER"] as const;

export type ClaimType = (typeof CLAIM_TYPES)[number];

/** ClaimOutcome (its rules: `lib/payments/claims/state-machine.ts`). */
export const CLAIM_OUTCOMES = ["NO_ERROR", "REFUND", "RESEND"] as const;

export type ClaimOutcome = (typeof CLAIM_OUTCOMES)[number];

/** ClaimRefundStatus: the states its machine moves (`lib/payments/claims/refund-state-machine.ts`). */
export const CLAIM_REFUND_STATUSES = ["OWED", "PAID"] as const;

export type ClaimRefundStatus = (typeof CLAIM_REFUND_STATUSES)[number];

/**
 * A customer's error claim on a transfer: states in lib/payments/claims/state-machine.ts.
 * Not compliance data: the customer and the partner see it (API, events).
 */
export const claims = pgTable(
  "claims",
  {
    id: text("id").primaryKey(),
    transferId: text("transfer_id")
      .notNull()
      .references(() => transfers.id),
    subscriptionId: text("subscription_id")
      .notNull()
      .references(() => subscriptions.id),
    type: text("type").$type<ClaimType>().notNull(),
    description: text("description").notNull(),
    state: text("state").$type<ClaimStatus>().notNull(),
    /** 90 days after the report (Regulation E 1005.33(c)). */
    dueBy: tstz("due_by").notNull(),
    outcome: text("outcome").$type<ClaimOutcome>(),
    /** REFUND: what the customer gets back, a decimal string in resolutionCurrency. */
    resolutionAmount: text("resolution_amount"),
    resolutionCurrency: text("resolution_currency"),
    /** The notice sent to the customer with the outcome (the operator's words, shown to the customer). */
    resolutionNotice: text("resolution_notice"),
    resolvedAt: tstz("resolved_at"),
    resolvedByEmail: text("resolved_by_email"),
    stateChangedAt: tstz("state_changed_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("claims_transfer_idx").on(t.transferId, t.createdAt),
    index("claims_state_idx").on(t.state, t.dueBy),
    decimalFormat("claims_resolution_amount_format", t.resolutionAmount),
  ],
);

/** Every state a claim took, in order. */
export const claimStateHistory = pgTable(
  "claim_state_history",
  {
    id: text("id").primaryKey(),
    claimId: text("claim_id")
      .notNull()
      .references(() => claims.id),
    seq: integer("seq").notNull(),
    state: text("state").$type<ClaimStatus>().notNull(),
    trigger: text("trigger").notNull(),
    transitionedAt: tstz("transitioned_at").notNull(),
  },
  (t) => [uniqueIndex("claim_state_history_seq_idx").on(t.claimId, t.seq)],
);

/**
 * What a claim resolved with REFUND owes the customer (docs/decisions.md "Claim refunds"): one per
 * claim, OWED until an operator records it paid (lib/payments/claims/refund-state-machine.ts).
 */
export const claimRefunds = pgTable(
  "claim_refunds",
  {
    id: text("id").primaryKey(),
    claimId: text("claim_id")
      .notNull()
      .references(() => claims.id),
    transferId: text("transfer_id")
      .notNull()
      .references(() => transfers.id),
    state: text("state").$type<ClaimRefundStatus>().notNull(),
    /** A decimal string in the transfer's origin currency (at most what the customer paid). */
    amount: text("amount").notNull(),
    currency: text("currency").notNull(),
    /** The operator's record of the payment from the bank. */
    bankReference: text("bank_reference"),
    paidAt: tstz("paid_at"),
    stateChangedAt: tstz("state_changed_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("claim_refunds_claim_idx").on(t.claimId),
    index("claim_refunds_state_idx").on(t.state, t.createdAt),
    decimalFormat("claim_refunds_amount_format", t.amount),
  ],
);
