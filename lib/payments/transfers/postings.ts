/**
 * Ledger postings of transfer transitions (docs/decisions.md "Ledger: chart of accounts
 * and postings"), as data next to the transition table. transitionTransfer (records.ts) and the
 * refund's completion (refunds.ts) are the only callers, in the transaction of the state change,
 * keyed by the state-history row. test/unit/ledger/postings.test.ts checks the table against
 * the machine: every transition that moves money has exactly one rule, every rule balances.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { postEntry, prefundingAccount, refundCashAccount, toMinor, type AccountCode, type FundingSource } from "@/lib/finance";
import { journalEntries, journalLines, ledgerAccounts, type transfers } from "@/db/schema";
import type { TransferState, TransferTrigger } from "./state-machine";

// The row type is spelled here rather than imported from records.ts, which calls this module.
type TransferRow = typeof transfers.$inferSelect;

/**
 * The amounts of a transfer a line can take: total = origin + principalFee + partnerFee in the
 * origin currency. The principal fee is ours (revenue:fees); the partner fee of a partner-signed
 * quote is the partner's (payable:partner-fees), zero for a service-priced quote.
 */
export type PostingAmount = "total" | "principalFee" | "partnerFee" | "origin" | "destination";
/**
 * A line's account: a chart code, or the transfer's funding source / its refund's cash account /
 * the prefunding account of the provider that paid it (the payout bank unless routed elsewhere).
 */
export type PostingAccount = AccountCode | "fundingSource" | "refundCash" | "payoutCash";

export interface PostingLeg {
  side: "debit" | "credit";
  account: PostingAccount;
  amount: PostingAmount;
}

export interface PostingRule {
  kind: string;
  memo: string;
  trigger: TransferTrigger;
  /** The state the money was in: for a move out of spended, the prior state. */
  from: readonly TransferState[];
  to: TransferState;
  legs: readonly PostingLeg[];
}

const Dr = (account: PostingAccount, amount: PostingAmount): PostingLeg => ({ side: "debit", account, amount });
const Cr = (account: PostingAccount, amount: PostingAmount): PostingLeg => ({ side: "credit", account, amount });

const NETWORK = ["topay", "reqpay"] as const;

/** Funds owed to the customer become a refund (a cancel or rejection before the network). */
const OWED_TO_REFUND = [Dr("transfer:customer-funds", "total"), Cr("transfer:refund-due", "total")];
/** The payout comes back: the conversion and both fees are reversed into the refund owed. */
const PAYOUT_RETURNED = [
  Dr("transfer:payout-in-flight", "destination"),
  Cr("fx:conversion", "destination"),
  Dr("fx:conversion", "origin"),
  Dr("revenue:fees", "principalFee"),
  Dr("payable:partner-fees", "partnerFee"),
  Cr("transfer:refund-due", "total"),
];
const PAYOUT_CONFIRMED = [Dr("transfer:payout-in-flight", "destination"), Cr("payoutCash", "destination")];

export const POSTING_RULES: readonly PostingRule[] = [
  {
    kind: "funding.received",
    memo: "Funds received from the customer",
    trigger: "funding.succeeded",
    from: ["funding"],
    to: "funded",
    legs: [Dr("fundingSource", "total"), Cr("transfer:customer-funds", "total")],
  },
  {
    kind: "payout.sent",
    memo: "Handed to the payout bank: fee earned, partner's fee owed, currency converted",
    trigger: "network.toPay",
    from: ["funded"],
    to: "topay",
    legs: [
      Dr("transfer:customer-funds", "total"),
      Cr("revenue:fees", "principalFee"),
      Cr("payable:partner-fees", "partnerFee"),
      Cr("fx:conversion", "origin"),
      Dr("fx:conversion", "destination"),
      Cr("transfer:payout-in-flight", "destination"),
    ],
  },
  { kind: "payout.confirmed", memo: "Payout confirmed by the payout bank", trigger: "network.paid", from: NETWORK, to: "paid", legs: PAYOUT_CONFIRMED },
  {
    kind: "payout.confirmed",
    memo: "Payout confirmed (the cancellation came too late)",
    trigger: "network.alreadyPaid",
    from: NETWORK,
    to: "paid",
    legs: PAYOUT_CONFIRMED,
  },
  {
    kind: "payout.returned",
    memo: "Network cancellation succeeded: payout returned, refund owed",
    trigger: "network.cancellationSucceeded",
    from: NETWORK,
    to: "canceled",
    legs: PAYOUT_RETURNED,
  },
  {
    kind: "payout.returned",
    memo: "Payout rejected by the payout bank: refund owed",
    trigger: "network.rejected",
    from: NETWORK,
    to: "rejected",
    legs: PAYOUT_RETURNED,
  },
  { kind: "refund.owed", memo: "Cancelled after funding: refund owed", trigger: "cancel", from: ["funded"], to: "canceled", legs: OWED_TO_REFUND },
  {
    kind: "refund.owed",
    memo: "Rejected by compliance after funding: refund owed",
    trigger: "compliance.reject",
    from: ["funded"],
    to: "rejected",
    legs: OWED_TO_REFUND,
  },
  // Held while with the payout bank and then rejected: the payout is stopped (the operator
  // recalls it), so it is reversed as a returned payout and refunded.
  {
    kind: "payout.returned",
    memo: "Rejected by compliance while with the payout bank: payout stopped, refund owed",
    trigger: "compliance.reject",
    from: NETWORK,
    to: "rejected",
    legs: PAYOUT_RETURNED,
  },
  // A confirmed sanctions match: the money received is blocked property of a listed
  // person, so it moves to blocked:sanctions instead of a refund; from the payout bank the
  // stopped payout is reversed first.
  {
    kind: "funds.blocked",
    memo: "Confirmed sanctions match: funds blocked, not refunded",
    trigger: "compliance.block",
    from: ["funded"],
    to: "rejected",
    legs: [Dr("transfer:customer-funds", "total"), Cr("blocked:sanctions", "total")],
  },
  {
    kind: "funds.blocked",
    memo: "Confirmed sanctions match while with the payout bank: payout stopped, funds blocked",
    trigger: "compliance.block",
    from: NETWORK,
    to: "rejected",
    legs: [
      Dr("transfer:payout-in-flight", "destination"),
      Cr("fx:conversion", "destination"),
      Dr("fx:conversion", "origin"),
      Dr("revenue:fees", "principalFee"),
      Dr("payable:partner-fees", "partnerFee"),
      Cr("blocked:sanctions", "total"),
    ],
  },
];

/** The refund paid back to where the funds came from (refund machine: COMPLETED). */
export const REFUND_PAID_RULE = {
  kind: "refund.paid",
  memo: "Refund paid to the customer",
  legs: [Dr("transfer:refund-due", "total"), Cr("refundCash", "total")],
} as const;

/**
 * A payout the bank returns after it was paid: no transfer state changes (paid is
 * terminal), the money is back in our payout-bank account, the conversion and the fee are
 * reversed, and the total is owed to the customer as a refund (then REFUND_PAID_RULE).
 */
export const RETURNED_AFTER_PAID_RULE = {
  kind: "payout.returnedAfterPaid",
  memo: "Payout returned by the payout bank after it was paid: refund owed",
  legs: [Dr("payoutCash", "destination"), ...PAYOUT_RETURNED.slice(1)],
} as const;

/**
 * A routed payout the beneficiary's bank returned to its provider after it was paid, refunded by
 * an operator: the money held in suspense:returned-payouts since the return (routed.ts) goes back
 * as RETURNED_AFTER_PAID_RULE's would, the conversion and the fees reversed into the refund owed.
 */
export const RETURNED_PAYOUT_REFUNDED_RULE = {
  kind: "payout.returnRefunded",
  memo: "Payout returned to the payout provider after it was paid, refunded: refund owed",
  legs: [Dr("suspense:returned-payouts", "destination"), ...PAYOUT_RETURNED.slice(1)],
} as const;

/** The rule for a state change, if it moves money. `from` is the prior state for moves out of spended. */
export function postingRuleFor(trigger: TransferTrigger, from: TransferState, to: TransferState): PostingRule | undefined {
  return POSTING_RULES.find((r) => r.trigger === trigger && r.from.includes(from) && r.to === to);
}

export interface TransferAmounts {
  originCurrency: string;
  destinationCurrency: string;
  total: bigint;
  principalFee: bigint;
  partnerFee: bigint;
  origin: bigint;
  destination: bigint;
}

/** The transfer's amounts in minor units; the priced terms must add up (total = origin + fees). */
export function transferAmounts(
  t: Pick<TransferRow, "originAmount" | "originCurrency" | "destinationAmount" | "destinationCurrency" | "principalFee" | "partnerFee" | "totalCustomerCost">,
): TransferAmounts {
  const oc = t.originCurrency;
  const amounts = {
    originCurrency: oc,
    destinationCurrency: t.destinationCurrency,
    total: toMinor(t.totalCustomerCost, oc),
    principalFee: toMinor(t.principalFee, oc),
    partnerFee: toMinor(t.partnerFee, oc),
    origin: toMinor(t.originAmount, oc),
    destination: toMinor(t.destinationAmount, t.destinationCurrency),
  };
  if (amounts.total !== amounts.origin + amounts.principalFee + amounts.partnerFee)
    throw new Error(`ledger: transfer terms do not add up: ${t.totalCustomerCost} != ${t.originAmount} + fees`);
  return amounts;
}

/** A rule's legs as ledger lines for this transfer (of `partnerId`, whose fee it owes). */
export function linesFor(
  legs: readonly PostingLeg[],
  amounts: TransferAmounts,
  fundedFrom: FundingSource,
  transferId: string,
  partnerId: string,
  payoutProvider: string | null = null,
) {
  return legs.map((leg) => {
    const account: AccountCode =
      leg.account === "fundingSource"
        ? fundedFrom
        : leg.account === "refundCash"
          ? refundCashAccount(fundedFrom)
          : leg.account === "payoutCash"
            ? prefundingAccount(payoutProvider)
            : leg.account;
    const currency = leg.amount === "destination" ? amounts.destinationCurrency : amounts.originCurrency;
    const value = amounts[leg.amount];
    return { account, currency, transferId, partnerId, ...(leg.side === "debit" ? { debit: value } : { credit: value }) };
  });
}

/**
 * Posts the entry of a transfer's state change (history row `historyId`), if the change moves
 * money. A transfer funded before the ledger existed (no fundedFrom) has no books to continue.
 */
export async function postTransition(
  tx: Tx,
  input: { transfer: TransferRow; trigger: TransferTrigger; from: TransferState; to: TransferState; historyId: string; now: Date },
): Promise<void> {
  const rule = postingRuleFor(input.trigger, input.from, input.to);
  const { transfer } = input;
  if (!rule || !transfer.fundedFrom) return;
  await postEntry(tx, {
    sourceKey: `transfer-state:${input.historyId}`,
    kind: rule.kind,
    memo: rule.memo,
    transferId: transfer.id,
    transferStateHistoryId: input.historyId,
    lines: linesFor(rule.legs, transferAmounts(transfer), transfer.fundedFrom, transfer.id, transfer.partnerId, transfer.payoutProvider),
    now: input.now,
  });
}

/**
 * The bank-credit shortfall written off when the transfer was funded within the tolerance
 * (lib/payments/reconciliation/postings.ts), in minor units of its origin currency; 0n for most transfers.
 */
export async function writtenOffShortfall(tx: Tx, transfer: Pick<TransferRow, "id" | "originCurrency">): Promise<bigint> {
  const [row] = await tx
    .select({ minor: sql<string>`coalesce(sum(${journalLines.debitMinor} - ${journalLines.creditMinor}), 0)` })
    .from(journalLines)
    .innerJoin(journalEntries, eq(journalEntries.id, journalLines.entryId))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, journalLines.accountId))
    .where(
      and(
        eq(journalEntries.transferId, transfer.id),
        eq(journalEntries.kind, "bank.credit.shortfallWrittenOff"),
        eq(ledgerAccounts.code, "expense:write-offs"),
        eq(ledgerAccounts.currency, transfer.originCurrency),
      ),
    );
  return BigInt(row?.minor ?? 0);
}

/**
 * A refund of a transfer funded short: the customer gets back what they paid, not the
 * total, so the shortfall owed as part of the total is taken back out of the refund due and the
 * write-off reversed (Dr transfer:refund-due / Cr expense:write-offs). Once per transfer.
 */
export async function postWriteOffReversed(tx: Tx, transfer: TransferRow, shortfall: bigint, now: Date): Promise<void> {
  if (!transfer.fundedFrom || shortfall <= 0n) return;
  const line = { currency: transfer.originCurrency, transferId: transfer.id, partnerId: transfer.partnerId };
  await postEntry(tx, {
    sourceKey: `write-off-reversed:${transfer.id}`,
    kind: "refund.writeOffReversed",
    memo: "Refund of a transfer funded short: the shortfall written off is not given back",
    transferId: transfer.id,
    lines: [
      { account: "transfer:refund-due", ...line, debit: shortfall },
      { account: "expense:write-offs", ...line, credit: shortfall },
    ],
    now,
  });
}

/**
 * A refund of a transfer whose claims were already refunded: the transition
 * owed back all the customer paid, but claim refunds gave (or owe) part of it already at our cost,
 * so that part is taken back out of the refund due and the claims' cost recovered
 * (Dr transfer:refund-due / Cr expense:claims). Once per transfer, as its refund.
 */
export async function postClaimRefundsDeducted(tx: Tx, transfer: TransferRow, deducted: bigint, now: Date): Promise<void> {
  if (!transfer.fundedFrom || deducted <= 0n) return;
  const line = { currency: transfer.originCurrency, transferId: transfer.id, partnerId: transfer.partnerId };
  await postEntry(tx, {
    sourceKey: `claim-refunds-deducted:${transfer.id}`,
    kind: "refund.claimRefundsDeducted",
    memo: "Refund less what the transfer's claim refunds already gave back: their cost recovered",
    transferId: transfer.id,
    lines: [
      { account: "transfer:refund-due", ...line, debit: deducted },
      { account: "expense:claims", ...line, credit: deducted },
    ],
    now,
  });
}

/**
 * Posts the refund's payment (once per transfer: a refund completes once), with the bank's
 * reference when recorded: the refund's amount (the total less a shortfall written off; the total
 * for refunds recorded before refunds.amount).
 */
export async function postRefundPaid(tx: Tx, transfer: TransferRow, refundAmount: string | null, now: Date, bankReference?: string | null): Promise<void> {
  if (!transfer.fundedFrom) return;
  const amounts = transferAmounts(transfer);
  const total = refundAmount === null ? amounts.total : toMinor(refundAmount, transfer.originCurrency);
  await postEntry(tx, {
    sourceKey: `refund-paid:${transfer.id}`,
    kind: REFUND_PAID_RULE.kind,
    memo: REFUND_PAID_RULE.memo,
    transferId: transfer.id,
    reference: bankReference ?? null,
    lines: linesFor(REFUND_PAID_RULE.legs, { ...amounts, total }, transfer.fundedFrom, transfer.id, transfer.partnerId),
    now,
  });
}

/** Posts the refund of a routed payout returned after it was paid (once per provider attempt). */
export async function postReturnedPayoutRefunded(tx: Tx, transfer: TransferRow, attemptId: string, now: Date): Promise<void> {
  if (!transfer.fundedFrom) return;
  await postEntry(tx, {
    sourceKey: `payout-return-refunded:${attemptId}`,
    kind: RETURNED_PAYOUT_REFUNDED_RULE.kind,
    memo: RETURNED_PAYOUT_REFUNDED_RULE.memo,
    transferId: transfer.id,
    lines: linesFor(RETURNED_PAYOUT_REFUNDED_RULE.legs, transferAmounts(transfer), transfer.fundedFrom, transfer.id, transfer.partnerId),
    now,
  });
}

/** Posts a paid payout's return (once per payout attempt). */
export async function postPayoutReturnedAfterPaid(tx: Tx, transfer: TransferRow, attemptId: string, now: Date): Promise<void> {
  if (!transfer.fundedFrom) return;
  await postEntry(tx, {
    sourceKey: `payout-returned:${attemptId}`,
    kind: RETURNED_AFTER_PAID_RULE.kind,
    memo: RETURNED_AFTER_PAID_RULE.memo,
    transferId: transfer.id,
    lines: linesFor(RETURNED_AFTER_PAID_RULE.legs, transferAmounts(transfer), transfer.fundedFrom, transfer.id, transfer.partnerId, transfer.payoutProvider),
    now,
  });
}
