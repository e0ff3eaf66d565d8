import { sql } from "drizzle-orm";
import { foreignKey, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, decimalFormat, tstz } from "./columns";
import { subscriptions } from "./subscriptions";
import { transfers } from "./transfers";

/** RefundStatus: the states its machine moves (`lib/payments/transfers/refund-state-machine.ts`). */
export const REFUND_STATUSES = ["PENDING", "PROCESSING", "COMPLETED", "FAILED"] as const;

export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** NetworkCancellationState: the states its machine moves (`lib/payments/transfers/network-cancellation-state-machine.ts`). */
export const NETWORK_CANCELLATION_STATES = ["PENDING", "SUCCEEDED", "ALREADY_PAID", "RETRY_ALLOWED"] as const;

export type NetworkCancellationState = (typeof NETWORK_CANCELLATION_STATES)[number];

/**
 * A pain.001 refund file: refunds of transfers funded by bank transfer, paid from
 * the collection account to the account the money came from (the payer's IBAN of the camt.053
 * credit). One per currency; the XML is kept encrypted like the payout files (it holds payers'
 * whole IBANs). Built by lib/payments/payouts/refund-file.ts with the payouts' pain.001 builder.
 */
export const refundFiles = pgTable(
  "refund_files",
  {
    /** Also the file's MsgId and PmtInfId. */
    id: text("id").primaryKey(),
    currency: text("currency").notNull(),
    transactionCount: integer("transaction_count").notNull(),
    controlSum: text("control_sum").notNull(),
    xmlEncrypted: text("xml_encrypted").notNull(),
    fileName: text("file_name").notNull(),
    createdAt: createdAt(),
  },
  (t) => [decimalFormat("refund_files_control_sum_format", t.controlSum)],
);

/**
 * A refund of a transfer (spec 2.8 RefundDetail): at most one per transfer, created when a funded
 * transfer is cancelled, a network cancellation succeeds or the payout bank rejects the payment.
 * Its states and moves are lib/payments/transfers/refund-state-machine.ts.
 */
export const refunds = pgTable(
  "refunds",
  {
    id: text("id").primaryKey(),
    transferId: text("transfer_id")
      .notNull()
      .references(() => transfers.id),
    subscriptionId: text("subscription_id")
      .notNull()
      .references(() => subscriptions.id),
    state: text("state").$type<RefundStatus>().notNull(),
    refundMethod: text("refund_method").$type<"ORIGINAL_PAYMENT_METHOD">().notNull(),
    initiatedAt: tstz("initiated_at").notNull(),
    estimatedCompletionBy: tstz("estimated_completion_by").notNull(),
    completedAt: tstz("completed_at"),
    /** The operator's record of a refund paid from the bank ("operator" refunds provider). */
    bankReference: text("bank_reference"),
    /**
     * What is given back, in the transfer's origin currency: the total the customer paid, less a
     * bank-credit shortfall written off when it funded. Null on refunds before this column: the total.
     */
    amount: text("amount"),
    /** The pain.001 refund file that pays it to the payer's account, once it is in one. */
    refundFileId: text("refund_file_id").references(() => refundFiles.id),
    /** Why the refund failed (operator's words or the provider's); never sent to partners. */
    failureReason: text("failure_reason"),
    stateChangedAt: tstz("state_changed_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("refunds_transfer_idx").on(t.transferId),
    index("refunds_state_idx").on(t.state, t.initiatedAt),
    decimalFormat("refunds_amount_format", t.amount),
  ],
);

/** Every state a refund took, in order (the refund machine's moves). */
export const refundStateHistory = pgTable(
  "refund_state_history",
  {
    id: text("id").primaryKey(),
    refundId: text("refund_id")
      .notNull()
      .references(() => refunds.id),
    seq: integer("seq").notNull(),
    state: text("state").$type<RefundStatus>().notNull(),
    trigger: text("trigger").notNull(),
    transitionedAt: tstz("transitioned_at").notNull(),
  },
  (t) => [uniqueIndex("refund_state_history_seq_idx").on(t.refundId, t.seq)],
);

/**
 * A customer's request to cancel a transfer already with the payout network (spec 3.1: topay or
 * reqpay), and the network's answer. A transfer may have several (a new request after
 * NETWORK_IN_PROGRESS_RETRY_ALLOWED); at most one PENDING. States and moves:
 * lib/payments/transfers/network-cancellation-state-machine.ts.
 */
export const networkCancellations = pgTable(
  "network_cancellations",
  {
    id: text("id").primaryKey(),
    transferId: text("transfer_id")
      .notNull()
      .references(() => transfers.id),
    state: text("state").$type<NetworkCancellationState>().notNull(),
    requestedAt: tstz("requested_at").notNull(),
    /** Spec 8's hint for when the network answers. */
    expectedBy: tstz("expected_by").notNull(),
    resolvedAt: tstz("resolved_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("network_cancellations_transfer_idx").on(t.transferId, t.createdAt),
    uniqueIndex("network_cancellations_pending_idx")
      .on(t.transferId)
      .where(sql`${t.state} = 'PENDING'`),
  ],
);

/** Every state a network cancellation took, in order. */
export const networkCancellationStateHistory = pgTable(
  "network_cancellation_state_history",
  {
    id: text("id").primaryKey(),
    networkCancellationId: text("network_cancellation_id").notNull(),
    seq: integer("seq").notNull(),
    state: text("state").$type<NetworkCancellationState>().notNull(),
    trigger: text("trigger").notNull(),
    transitionedAt: tstz("transitioned_at").notNull(),
  },
  (t) => [
    uniqueIndex("network_cancellation_state_history_seq_idx").on(t.networkCancellationId, t.seq),
    // Named here: the generated name would pass PostgreSQL's 63-character limit and be cut.
    foreignKey({ name: "network_cancellation_state_history_fk", columns: [t.networkCancellationId], foreignColumns: [networkCancellations.id] }),
  ],
);
