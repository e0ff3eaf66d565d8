import { index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { beneficiaries, payoutMethods } from "./beneficiaries";
import { createdAt, decimalFormat, pricingChecks, pricingColumns, tstz } from "./columns";
import { customers } from "./customers";
import { partners } from "./partners";
import { quotes } from "./quotes";
import { subscriptions } from "./subscriptions";

/** TransferState: the states its machine moves (`lib/payments/transfers/state-machine.ts`). */
export const TRANSFER_STATES = [
  "registered",
  "onreview",
  "validated",
  "funding",
  "funded",
  "topay",
  "reqpay",
  "spended",
  "paid",
  "aborted",
  "rejected",
  "expired",
  "canceled",
] as const;

export type TransferState = (typeof TRANSFER_STATES)[number];

/** FundingSessionStatus: the states its machine moves (`lib/payments/transfers/funding-session-state-machine.ts`). */
export const FUNDING_SESSION_STATUSES = ["OPEN", "SUCCEEDED", "FAILED", "EXPIRED"] as const;

export type FundingSessionStatus = (typeof FUNDING_SESSION_STATUSES)[number];

/** The outcomes decided when the customer cancels (no network involved). */
export type ImmediateCancellationOutcome = "ABORTED_PRE_FUNDING" | "CANCELED_PRE_NETWORK";

export interface CancellationRecord {
  cancellationReason: string;
  cancelRequestedAt: string;
  /** Absent when the cancellation went to the payout network: its network_cancellations row answers. */
  cancellationOutcome?: ImmediateCancellationOutcome;
  canceledAt?: string;
}

/** A transfer's payee verification as kept (transfers.payee_verification). */
export interface PayeeVerificationRecord {
  result: "MATCH" | "CLOSE_MATCH" | "NO_MATCH" | "NOT_POSSIBLE";
  /** CLOSE_MATCH: the name the account's bank holds. */
  nameHeld?: string;
  checkedAt: string;
  provider: string;
  /** The payout method (destination) the answer is for: a new one (a repair) is verified again. Absent on records before it was kept. */
  payoutMethodId?: string;
  /** The customer confirmed after a NO_MATCH or CLOSE_MATCH. */
  proceededAt?: string;
}

/**
 * Where a transfer's money came from, and so where its refund is paid back to: the card PSP's
 * clearing account, the collection bank account (sandbox instant bank transfer), or suspense (a
 * bank credit matched from a statement, already posted Dr cash:collection / Cr suspense).
 */
export const FUNDING_SOURCES = ["cash:card-clearing", "cash:collection", "suspense:unallocated"] as const;

export type FundingSource = (typeof FUNDING_SOURCES)[number];

/** A transfer (spec 2.7); its states and moves are lib/payments/transfers/state-machine.ts. */
export const transfers = pgTable(
  "transfers",
  {
    id: text("id").primaryKey(),
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.id),
    subscriptionId: text("subscription_id")
      .notNull()
      .references(() => subscriptions.id),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id),
    quoteId: text("quote_id")
      .notNull()
      .references(() => quotes.id),
    beneficiaryId: text("beneficiary_id")
      .notNull()
      .references(() => beneficiaries.id),
    state: text("state").$type<TransferState>().notNull(),
    /** The state before a compliance hold (spended), restored on release. */
    priorState: text("prior_state").$type<TransferState>(),
    stateChangedAt: tstz("state_changed_at").notNull(),
    ...pricingColumns(),
    corridor: text("corridor").notNull(),
    /**
     * The configuration version its quote was priced under (configuration_versions.version): the
     * corridor's methods and formats submit and the checks read. Null on transfers accepted before
     * transfers recorded it (their quote's corridor_data_version names it).
     */
    configurationVersion: integer("configuration_version"),
    payoutMethod: text("payout_method").notNull(),
    purposeOfTransfer: text("purpose_of_transfer").notNull(),
    payoutMethodId: text("payout_method_id").references(() => payoutMethods.id),
    submittedAt: tstz("submitted_at"),
    fastCheckExpectedBy: tstz("fast_check_expected_by"),
    confirmedAt: tstz("confirmed_at"),
    /** The latest confirmationChallenge: each read in validated replaces it (spec 4.1 rule 8). */
    challenge: text("challenge"),
    challengeExpiresAt: tstz("challenge_expires_at"),
    /** 120 minutes after registration (spec 3.1); pre-funding states expire then. */
    expiresAt: tstz("expires_at").notNull(),
    /** What the customer asked when cancelling (spec 2.8), null until then; refunds and network cancellations have their own tables (refunds.ts). */
    cancellation: jsonb("cancellation").$type<CancellationRecord>(),
    /** Where the funds came from (ledger account), set when funded: the refund pays back from there. */
    fundedFrom: text("funded_from").$type<FundingSource>(),
    /** Reason of a rejection (fast-check failure code, operator rationale code). */
    rejectionReason: text("rejection_reason"),
    /**
     * What the transfer counts against the customer's rolling limits: its origin amount
     * converted into the partner's limit currency at the reference rate of its acceptance. It
     * counts from createdAt (the acceptance) while the transfer is not aborted, expired, rejected or
     * canceled. Null on transfers accepted before limits existed.
     */
    limitAmount: text("limit_amount"),
    limitCurrency: text("limit_currency"),
    /**
     * The payout provider that took the payout ("aggregator", "bank-file"), set by the routed payout
     * when one accepts it: its prefunding account is the one the payout draws. Null: the payout bank.
     */
    payoutProvider: text("payout_provider"),
    /**
     * The payee verification of the destination (the name on the account), asked after submit
     * through the payout aggregator; `proceededAt` records the confirmation after a NO_MATCH or
     * CLOSE_MATCH (it matters for an error claim). Null: not verified (not a routed payout).
     */
    payeeVerification: jsonb("payee_verification").$type<PayeeVerificationRecord>(),
    createdAt: createdAt(),
  },
  (t) => [
    // One transfer per quote: two concurrent accepts of one quote cannot both insert.
    uniqueIndex("transfers_quote_idx").on(t.quoteId),
    // The list by subscription, and the limits' usage (lib/payments/limits/usage.ts) read from the index
    // alone: the columns it sums and filters on are in the key (drizzle-kit has no INCLUDE).
    index("transfers_subscription_idx").on(t.subscriptionId, t.createdAt, t.limitCurrency, t.state, t.limitAmount),
    index("transfers_state_idx").on(t.state),
    // Monitoring's windowed aggregates: per sender, per beneficiary, per destination.
    index("transfers_customer_submitted_idx").on(t.customerId, t.submittedAt),
    index("transfers_beneficiary_submitted_idx").on(t.beneficiaryId, t.submittedAt),
    index("transfers_payout_method_submitted_idx").on(t.payoutMethodId, t.submittedAt),
    ...pricingChecks("transfers", t),
    decimalFormat("transfers_limit_amount_format", t.limitAmount),
  ],
);

/** StateHistoryEntry rows (spec 2.8), in order. */
export const transferStateHistory = pgTable(
  "transfer_state_history",
  {
    id: text("id").primaryKey(),
    transferId: text("transfer_id")
      .notNull()
      .references(() => transfers.id),
    seq: integer("seq").notNull(),
    state: text("state").$type<TransferState>().notNull(),
    reasonCode: text("reason_code").notNull(),
    transitionedAt: tstz("transitioned_at").notNull(),
  },
  (t) => [uniqueIndex("transfer_state_history_seq_idx").on(t.transferId, t.seq)],
);

/** A funding attempt (spec 2.8 FundingSession); states in lib/payments/transfers/funding-session-state-machine.ts. */
export const fundingSessions = pgTable(
  "funding_sessions",
  {
    id: text("id").primaryKey(),
    transferId: text("transfer_id")
      .notNull()
      .references(() => transfers.id),
    state: text("state").$type<FundingSessionStatus>().notNull(),
    /** CARD or BANK_TRANSFER, once the customer paid. */
    method: text("method"),
    /** The ISO 11649 RF reference, once the customer chose bank transfer: unique. */
    creditorReference: text("creditor_reference"),
    expiresAt: tstz("expires_at").notNull(),
    completedAt: tstz("completed_at"),
    createdAt: createdAt(),
  },
  (t) => [index("funding_sessions_transfer_idx").on(t.transferId), uniqueIndex("funding_sessions_creditor_reference_idx").on(t.creditorReference)],
);
