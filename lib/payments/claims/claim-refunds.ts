/**
 * Claim refunds (docs/decisions.md "Claim refunds"): the one module that writes
 * claim_refunds.state. A claim resolved with REFUND owes the customer its amount at once (our cost,
 * Dr expense:claims / Cr transfer:refund-due, in the resolution's transaction); an operator pays it
 * from the bank and records it paid on the Refunds page (dual control: transfer.refund.paid), which
 * moves the obligation to cash (Dr transfer:refund-due / Cr the refund's cash account).
 */
import { asc, eq } from "drizzle-orm";
import type { Executor, Tx } from "@/db";
import { newId } from "@/db/ids";
import { claimRefunds, transfers } from "@/db/schema";
import { DomainError } from "@/lib/platform/errors";
import { postEntry, refundCashAccount, toMinor } from "@/lib/finance";
import type { TransferRow } from "@/lib/payments/transfers/records";
import { claimRefundMachine } from "./refund-state-machine";

export type ClaimRefundRow = typeof claimRefunds.$inferSelect;

const lineOf = (transfer: TransferRow) => ({ currency: transfer.originCurrency, transferId: transfer.id, partnerId: transfer.partnerId });

/** Called by resolveClaim (the transfer locked): the refund owed, posted in the same transaction. */
export async function oweClaimRefund(tx: Tx, input: { claimId: string; transfer: TransferRow; amount: string; now: Date }): Promise<ClaimRefundRow> {
  const { transfer, now } = input;
  const step = claimRefundMachine.next("none", "claim.resolvedRefund");
  const [owed] = await tx
    .insert(claimRefunds)
    .values({
      id: newId("crf"),
      claimId: input.claimId,
      transferId: transfer.id,
      state: step.to,
      amount: input.amount,
      currency: transfer.originCurrency,
      stateChangedAt: now,
      createdAt: now,
    })
    .returning();
  const minor = toMinor(input.amount, transfer.originCurrency);
  await postEntry(tx, {
    sourceKey: `claim-refund-owed:${owed.id}`,
    kind: "claim.refundOwed",
    memo: "Error claim resolved with a refund: owed to the customer, at our cost",
    transferId: transfer.id,
    lines: [
      { account: "expense:claims", ...lineOf(transfer), debit: minor },
      { account: "transfer:refund-due", ...lineOf(transfer), credit: minor },
    ],
    now,
  });
  return owed;
}

/** The claim refund, locked (the caller locks its transfer first: the lock order of transfer writes). */
export async function lockClaimRefund(tx: Tx, claimRefundId: string): Promise<ClaimRefundRow | undefined> {
  const [row] = await tx.select().from(claimRefunds).where(eq(claimRefunds.id, claimRefundId)).for("update");
  return row;
}

/**
 * An operator paid the claim refund from the bank (refund.stateInvalid once paid): the obligation
 * moves to the cash account the transfer's money came from, as the transfer's refund does.
 */
export async function payClaimRefund(
  tx: Tx,
  input: { transfer: TransferRow; claimRefundId: string; bankReference: string; now: Date },
): Promise<ClaimRefundRow> {
  const { transfer, now } = input;
  const refund = await lockClaimRefund(tx, input.claimRefundId);
  if (!refund || refund.transferId !== transfer.id)
    throw new DomainError("refund.stateInvalid", { message: "This transfer has no such claim refund.", details: { claimRefundId: input.claimRefundId } });
  const step = claimRefundMachine.next(refund.state, "operator.paid");
  const [paid] = await tx
    .update(claimRefunds)
    .set({ state: step.to, stateChangedAt: now, paidAt: now, bankReference: input.bankReference })
    .where(eq(claimRefunds.id, refund.id))
    .returning();
  const minor = toMinor(paid.amount, paid.currency);
  // A claim is only made on a funded transfer, so fundedFrom is set; the collection account otherwise.
  const cash = refundCashAccount(transfer.fundedFrom ?? "cash:collection");
  await postEntry(tx, {
    sourceKey: `claim-refund-paid:${paid.id}`,
    kind: "claim.refundPaid",
    memo: "Error claim refund paid to the customer",
    transferId: transfer.id,
    reference: input.bankReference,
    lines: [
      { account: "transfer:refund-due", ...lineOf(transfer), debit: minor },
      { account: cash, ...lineOf(transfer), credit: minor },
    ],
    now,
  });
  return paid;
}

/** Console Refunds page: claim refunds still owed, oldest first, with where the money goes back to. */
export async function claimRefundsOwed(db: Executor) {
  return db
    .select({ refund: claimRefunds, fundedFrom: transfers.fundedFrom })
    .from(claimRefunds)
    .innerJoin(transfers, eq(transfers.id, claimRefunds.transferId))
    .where(eq(claimRefunds.state, "OWED"))
    .orderBy(asc(claimRefunds.createdAt), asc(claimRefunds.id))
    .limit(200);
}
