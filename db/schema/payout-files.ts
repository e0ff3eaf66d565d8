import { index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, decimalFormat, tstz } from "./columns";
import { transfers } from "./transfers";

/** PayoutAttemptState: the states its machine moves (`lib/payments/payouts/payout-attempt-state-machine.ts`). */
export const PAYOUT_ATTEMPT_STATES = ["SENT", "REJECTED", "REPAIRED", "RESENT", "ABANDONED", "RETURNED"] as const;

export type PayoutAttemptState = (typeof PAYOUT_ATTEMPT_STATES)[number];

/**
 * A pain.001 credit-transfer file for one payout bank and currency. The XML is
 * kept encrypted (lib/platform/crypto/destination-cipher.ts): it holds beneficiaries' full account numbers.
 */
export const payoutFiles = pgTable(
  "payout_files",
  {
    /** Also the file's MsgId and PmtInfId. */
    id: text("id").primaryKey(),
    bankId: text("bank_id").notNull(),
    currency: text("currency").notNull(),
    /** Set when the sandbox endpoint made the file for one partner's transfers. */
    partnerId: text("partner_id"),
    transactionCount: integer("transaction_count").notNull(),
    /** CtrlSum: the sum of the amounts, a decimal string in the currency's minor units. */
    controlSum: text("control_sum").notNull(),
    xmlEncrypted: text("xml_encrypted").notNull(),
    fileName: text("file_name").notNull(),
    /** When the file was written to PAYOUT_OUTBOX_DIR (null: not written, or no outbox). */
    writtenAt: tstz("written_at"),
    createdAt: createdAt(),
  },
  (t) => [index("payout_files_created_idx").on(t.createdAt), decimalFormat("payout_files_control_sum_format", t.controlSum)],
);

/**
 * One credit transfer of a file: a payout attempt. A transfer is in one file per
 * attempt: the first (attempt 1), and after a repaired rejection the resend (attempt 2, ...).
 */
export const payoutFileItems = pgTable(
  "payout_file_items",
  {
    id: text("id").primaryKey(),
    payoutFileId: text("payout_file_id")
      .notNull()
      .references(() => payoutFiles.id),
    transferId: text("transfer_id")
      .notNull()
      .references(() => transfers.id),
    /** InstdAmt as written, in the currency's minor units. */
    amount: text("amount").notNull(),
    /** 1 for the first file, then one more per resend after a repair. */
    attempt: integer("attempt").notNull().default(1),
    /** The payout attempt machine's state (lib/payments/payouts/payout-attempt-state-machine.ts). */
    state: text("state").$type<PayoutAttemptState>().notNull().default("SENT"),
    /** The payout bank's reason code (StsRsnInf) of a rejection or a return. */
    reasonCode: text("reason_code"),
    stateChangedAt: tstz("state_changed_at"),
  },
  (t) => [
    uniqueIndex("payout_file_items_transfer_attempt_idx").on(t.transferId, t.attempt),
    index("payout_file_items_file_idx").on(t.payoutFileId),
    decimalFormat("payout_file_items_amount_format", t.amount),
  ],
);

/** A pain.002 transaction status applied to a transfer: a status is applied once per end-to-end id. */
export const paymentStatusRecords = pgTable(
  "payment_status_records",
  {
    id: text("id").primaryKey(),
    /** OrgnlEndToEndId: our transferId. */
    endToEndId: text("end_to_end_id").notNull(),
    /** TxSts (ACSC, RJCT, ...). */
    status: text("status").notNull(),
    /** StsRsnInf/Rsn/Cd, when given. */
    reasonCode: text("reason_code"),
    transferId: text("transfer_id")
      .notNull()
      .references(() => transfers.id),
    /** The report's GrpHdr/MsgId. */
    reportMessageId: text("report_message_id").notNull(),
    importedAt: tstz("imported_at").notNull(),
    /** The payout attempt the status answers (a resend's statuses are its own). */
    attempt: integer("attempt").notNull().default(1),
  },
  (t) => [uniqueIndex("payment_status_records_status_attempt_idx").on(t.endToEndId, t.status, t.attempt)],
);
