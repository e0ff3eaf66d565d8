import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, decimalFormat, tstz } from "./columns";
import { transfers } from "./transfers";

/** BankCreditState: the states its machine moves (`lib/payments/reconciliation/bank-credit-state-machine.ts`). */
export const BANK_CREDIT_STATES = ["QUEUED", "MATCHED", "EXCESS", "RETURN_REQUESTED", "RETURNED"] as const;

export type BankCreditState = (typeof BANK_CREDIT_STATES)[number];

/** Why a credit waits for an operator. */
export const QUEUE_REASONS = ["UNMATCHED", "PARTIAL", "OVERPAID", "WRONG_CURRENCY", "LATE"] as const;

export type QueueReason = (typeof QUEUE_REASONS)[number];

/**
 * One credit entry of an imported bank statement (lib/payments/reconciliation). Unique on the
 * bank's entry reference (AcctSvcrRef): importing a statement twice inserts nothing the second time.
 * Amounts are decimal strings as the statement wrote them; the payer's account is masked.
 */
export const bankCredits = pgTable(
  "bank_credits",
  {
    id: text("id").primaryKey(),
    bankReference: text("bank_reference").notNull(),
    amount: text("amount").notNull(),
    currency: text("currency").notNull(),
    bookingDate: text("booking_date"),
    creditorReference: text("creditor_reference"),
    remittance: text("remittance"),
    payerName: text("payer_name"),
    payerAccount: text("payer_account"),
    /**
     * The payer's whole IBAN, encrypted (lib/platform/crypto/destination-cipher.ts, the
     * credit's id as associated data): where a refund of the transfer it funded is paid.
     */
    payerAccountEncrypted: text("payer_account_encrypted"),
    statementId: text("statement_id").notNull(),
    state: text("state").$type<BankCreditState>().notNull(),
    /** Why it waited for an operator (null when it matched at import). */
    reason: text("reason").$type<QueueReason>(),
    transferId: text("transfer_id").references(() => transfers.id),
    /** What funded the transfer (the transfer's total); the rest of an over-payment is to return. */
    appliedAmount: text("applied_amount"),
    returnedAmount: text("returned_amount"),
    /** The bank's reference of the executed return, and when it was recorded. */
    returnBankReference: text("return_bank_reference"),
    returnExecutedAt: tstz("return_executed_at"),
    /** A shortfall within the tolerance (BANK_CREDIT_SHORTFALL_TOLERANCE), written off when it funded. */
    writtenOffAmount: text("written_off_amount"),
    resolvedBy: text("resolved_by"),
    resolvedAt: tstz("resolved_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("bank_credits_bank_reference_idx").on(t.bankReference),
    index("bank_credits_state_idx").on(t.state, t.createdAt),
    decimalFormat("bank_credits_amount_format", t.amount),
    decimalFormat("bank_credits_applied_amount_format", t.appliedAmount),
    decimalFormat("bank_credits_returned_amount_format", t.returnedAmount),
    decimalFormat("bank_credits_written_off_amount_format", t.writtenOffAmount),
  ],
);
