/**
 * Commands on payouts and refunds to the bank: files generated, the banks' status reports
 * imported, a recall's outcome and a rejected payout resolved, a refund's outcome recorded.
 */
import { z } from "zod";
import {
  generatePayoutFiles as generatePayouts,
  checkTopUp,
  refuseRecordedTopUp,
  topUpPrefunding,
  importPaymentStatusReport as importReport,
  statusImportSummary,
  refundRejectedPayout as refundRejected,
  refundReturnedPayout as refundReturned,
  generateRefundFiles as generateRefunds,
  resolveNetworkCancellation as resolveCancellation,
  importPrefundingStatement,
} from "@/lib/payments";
import { command } from "./command";

/** Every transfer ready for payout into files now (what the periodic job would do): each file audited. */
export const generatePayoutFiles = command({
  name: "payoutFile.generate",
  role: "admin",
  input: z.object({}),
  run: async ({ tx, now }) => {
    const files = await generatePayouts(tx, { now });
    return {
      entries: files.map((f) => ({
        action: "payoutFile.generate",
        targetType: "payoutFile",
        targetId: f.id,
        after: { bankId: f.bank.id, currency: f.currency, transactions: f.transactionCount, controlSum: f.controlSum },
      })),
      notice:
        files.length === 0
          ? "No transfer is ready for payout."
          : `Generated ${files.length} file(s): ${files.map((f) => `${f.bank.name} ${f.currency} ×${f.transactionCount}`).join(", ")}.`,
    };
  },
});

/** A payout bank's pain.002 status report (read by the adapter before the transaction) applied. */
export const importPaymentStatusReport = command({
  name: "paymentStatusReport.import",
  role: "admin",
  input: z.object({ name: z.string(), xml: z.string() }),
  run: async ({ tx, now }, p) => {
    const counts = await importReport(tx, { xml: p.xml, now });
    return {
      targetType: "paymentStatusReport",
      targetId: p.name,
      after: { ...counts },
      // The notice travels in the page's URL: at most 10 unmatched lines, each with its reason.
      notice: statusImportSummary(p.name, counts, 10),
    };
  },
});

/** The bank's answer to a customer's cancellation of a transfer already in a file (the recall's outcome). */
export const resolveNetworkCancellation = command({
  name: "transfer.networkCancellation.resolve",
  role: "admin",
  input: z.object({
    transferId: z.string().min(1),
    outcome: z.enum(["NETWORK_CANCELLATION_SUCCESS", "NETWORK_ALREADY_PAID", "NETWORK_IN_PROGRESS_RETRY_ALLOWED"]),
  }),
  locks: (p) => ({ transfer: p.transferId }),
  run: async ({ tx, now, locked: { transfer: row } }, p) => {
    const after = await resolveCancellation(tx, row, p.outcome, now);
    return {
      targetType: "transfer",
      targetId: row.id,
      before: { state: row.state, cancellationOutcome: "NETWORK_CANCELLATION_PENDING" },
      after: { state: after.state, cancellationOutcome: p.outcome },
      notice: `Transfer ${row.id}: ${p.outcome} (now ${after.state}).`,
    };
  },
});

/** The operator gives up on a payout the bank rejected: the transfer is rejected with the bank's reason and refunded. */
export const refundRejectedPayout = command({
  name: "transfer.payout.refund",
  role: "admin",
  input: z.object({ transferId: z.string().min(1) }),
  locks: (p) => ({ transfer: p.transferId }),
  run: async ({ tx, now, locked: { transfer: row } }) => {
    const after = await refundRejected(tx, row, now);
    return {
      targetType: "transfer",
      targetId: row.id,
      before: { state: row.state },
      after: { state: after.state, rejectionReason: after.rejectionReason },
      notice: `Transfer ${row.id}: rejected, refund owed.`,
    };
  },
});

/**
 * A paid payout the beneficiary's bank returned to its provider: the operator refunds the customer
 * from the returned money (the transfer stays paid; its refund is paid and recorded as any other,
 * the recording under dual control).
 */
export const refundReturnedPayout = command({
  name: "transfer.returnedPayout.refund",
  role: "admin",
  input: z.object({ transferId: z.string().min(1) }),
  locks: (p) => ({ transfer: p.transferId }),
  run: async ({ tx, now, locked: { transfer: row } }) => {
    const done = await refundReturned(tx, row, now);
    return {
      targetType: "transfer",
      targetId: row.id,
      before: { state: row.state, payoutAttempt: done.attempt.id, payoutAttemptState: "RETURNED" },
      after: { state: row.state, payoutAttemptState: done.attempt.state, refundStatus: done.refund?.state ?? null, refundAmount: done.refund?.amount ?? null },
      notice: done.refund
        ? `Transfer ${row.id}: returned payout refunded, ${done.refund.amount} ${row.originCurrency} owed to the customer.`
        : `Transfer ${row.id}: returned payout closed; nothing left to refund (claim refunds gave it back already).`,
    };
  },
});

/**
 * Refunds of transfers funded by bank transfer, to the payer's account: one pain.001 refund file
 * per currency (each audited); each refund in it is PROCESSING until recorded paid.
 */
export const generateRefundFiles = command({
  name: "refund.fileGenerated",
  role: "admin",
  input: z.object({}),
  run: async ({ tx, now }) => {
    const files = await generateRefunds(tx, { now });
    return {
      entries: files.map((f) => ({
        action: "refund.fileGenerated",
        targetType: "refundFile",
        targetId: f.id,
        before: null,
        after: { currency: f.currency, transactionCount: f.transactionCount, controlSum: f.controlSum, transferIds: f.transferIds },
        reason: "Refund file generated",
      })),
      notice:
        files.length === 0
          ? "No refund to put in a file: none pending of a transfer paid by bank transfer with the payer's account known."
          : files.map((f) => `Refund file ${f.id}: ${f.transactionCount} refund(s), ${f.controlSum} ${f.currency}.`).join(" "),
    };
  },
});

/**
 * A payout provider's prefunding topped up: money sent from our operating account to the
 * provider (its bank reference recorded), posted to the provider's prefunding account; the payouts
 * held for its cover are released. Money leaving the house: always a second operator's approval.
 */
export const topUpPrefundingCommand = command({
  name: "prefunding.topUp",
  role: "admin",
  input: z.object({
    provider: z.string().trim().min(1),
    currency: z.string().trim().toUpperCase().length(3),
    amount: z
      .string()
      .trim()
      .regex(/^\d+(\.\d+)?$/, "a plain decimal (25000.00)"),
    bankReference: z.string().trim().min(1).max(140),
  }),
  subject: (p) => ({ type: "prefunding", id: `${p.provider}:${p.currency}` }),
  describe: async (tx, p) => {
    checkTopUp(p);
    await refuseRecordedTopUp(tx, p);
    return {
      summary: `Top up ${p.provider}'s ${p.currency} prefunding by ${p.amount} ${p.currency} from the operating account, bank reference ${p.bankReference}`,
      before: { provider: p.provider, currency: p.currency },
      after: { amount: p.amount, currency: p.currency, bankReference: p.bankReference },
    };
  },
  run: async ({ tx, now }, p) => {
    await refuseRecordedTopUp(tx, p);
    const done = await topUpPrefunding(tx, p, now);
    return {
      targetType: "prefunding",
      targetId: `${p.provider}:${p.currency}`,
      after: { amount: p.amount, currency: p.currency, bankReference: p.bankReference, released: done.released },
      notice: `${p.provider} ${p.currency} prefunding topped up by ${p.amount}; ${done.released} held payout(s) released.`,
    };
  },
});

/**
 * A payout provider's balance statement (its file, read by the adapter before the transaction)
 * set against our prefunding account at the statement's time; each currency's difference is kept
 * and shown on the liquidity page (and alerted while not zero). Importing it again changes nothing.
 */
export const importPrefundingStatementCommand = command({
  name: "prefundingStatement.import",
  role: "admin",
  input: z.object({ provider: z.string().trim().min(1), name: z.string(), text: z.string() }),
  run: async ({ tx, now }, p) => {
    const done = await importPrefundingStatement(tx, { provider: p.provider, text: p.text, now });
    const lines = done.compared.map((c) => `${c.currency} statement ${c.statement}, ours ${c.ledger}, difference ${c.difference}`);
    return {
      targetType: "prefundingStatement",
      targetId: `${p.provider}:${p.name}`,
      after: { compared: done.compared.map(({ asOf, ...c }) => ({ ...c, asOf: asOf.toISOString() })), duplicates: done.duplicates },
      notice: `${p.provider} statement ${p.name}: ${lines.length ? lines.join("; ") : "nothing new"}${done.duplicates ? ` (${done.duplicates} currencies imported before)` : ""}.`,
    };
  },
});
