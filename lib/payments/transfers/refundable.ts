/**
 * What a transfer may still give back to its customer (docs/decisions.md
 * "Refunds capped by what was paid"): the ONE place every refund is measured against. The
 * transfer's refund (cancelled after funding, payout rejected or returned, even after `paid`) and
 * every claim refund are capped here, so no sequence of them owes more than the customer paid.
 *
 *   paid      = the total, less a bank-credit shortfall written off when it funded
 *   committed = the transfer's refund (any state: a FAILED refund is still owed) + every claim refund
 *   left      = paid − committed (never below zero)
 *
 * The caller holds the transfer's lock (FOR UPDATE), so two refunds of one transfer never read
 * the same `left`.
 */
import { eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { claimRefunds, refunds } from "@/db/schema";
import { fromMinor, toMinor } from "@/lib/finance";
import { writtenOffShortfall } from "./postings";
import type { TransferRow } from "./records";

export interface Refundable {
  currency: string;
  /** What the customer paid, in minor units. */
  paid: bigint;
  /** The transfer's refund: what it gives back (0n when it has none). */
  refund: bigint;
  /** The claim refunds owed or paid. */
  claimRefunds: bigint;
  /** What may still be given back: paid − refund − claim refunds, at least 0n. */
  left: bigint;
}

export async function refundableOf(tx: Tx, transfer: Pick<TransferRow, "id" | "originCurrency" | "totalCustomerCost">): Promise<Refundable> {
  const currency = transfer.originCurrency;
  const total = toMinor(transfer.totalCustomerCost, currency);
  const paid = total - (await writtenOffShortfall(tx, transfer));
  const [refund] = await tx.select({ amount: refunds.amount }).from(refunds).where(eq(refunds.transferId, transfer.id));
  // A refund recorded before refunds.amount gave back the total.
  const refundMinor = refund ? (refund.amount === null ? total : toMinor(refund.amount, currency)) : 0n;
  const claimAmounts = await tx
    .select({ amount: claimRefunds.amount, currency: claimRefunds.currency })
    .from(claimRefunds)
    .where(eq(claimRefunds.transferId, transfer.id));
  let claimed = 0n;
  for (const c of claimAmounts) {
    if (c.currency !== currency) throw new Error(`refundable: claim refund in ${c.currency} on a ${currency} transfer ${transfer.id}`);
    claimed += toMinor(c.amount, currency);
  }
  const left = paid - refundMinor - claimed;
  return { currency, paid, refund: refundMinor, claimRefunds: claimed, left: left > 0n ? left : 0n };
}

/** The refundable figures as decimal strings, for messages and details. */
export function refundableWords(r: Refundable) {
  return {
    paid: fromMinor(r.paid, r.currency),
    alreadyOwedOrRefunded: fromMinor(r.refund + r.claimRefunds, r.currency),
    left: fromMinor(r.left, r.currency),
    currency: r.currency,
  };
}
