import { desc, eq } from "drizzle-orm";
import type { Executor, Tx } from "@/db";
import { payoutFileItems, payoutMethods, transfers } from "@/db/schema";
import { DomainError } from "@/lib/platform/errors";
import { effectsOf } from "@/lib/platform/unit-of-work";
import { rejectPayout } from "@/lib/payments/transfers/network";
import { postPayoutReturnedAfterPaid } from "@/lib/payments/transfers/postings";
import type { TransferRow } from "@/lib/payments/transfers/records";
import { startRefund } from "@/lib/payments/transfers/refunds";
import { payoutAttemptMachine, type PayoutAttemptTrigger } from "./payout-attempt-state-machine";
import { payoutRejection, REPAIRABLE_REASONS, type PayoutRejection } from "./reject-reasons";

/**
 * Payout attempts: the one module that moves payout_file_items.state through
 * its machine (generate.ts inserts each new attempt SENT). A rejection of the destination waits
 * for a repair or a refund; a repaired attempt goes into the next file; a payment the bank returns
 * after it was paid owes the refund.
 */
export type PayoutAttemptRow = typeof payoutFileItems.$inferSelect;

export { REPAIRABLE_REASONS } from "./reject-reasons";

/** The transfer's latest attempt (the highest), locked; undefined when it was never in a file. */
export async function lockLatestAttempt(tx: Tx, transferId: string): Promise<PayoutAttemptRow | undefined> {
  const [row] = await tx
    .select()
    .from(payoutFileItems)
    .where(eq(payoutFileItems.transferId, transferId))
    .orderBy(desc(payoutFileItems.attempt))
    .limit(1)
    .for("update");
  return row;
}

export async function moveAttempt(tx: Tx, item: PayoutAttemptRow, trigger: PayoutAttemptTrigger, now: Date, reasonCode?: string | null) {
  const to = payoutAttemptMachine.next(item.state, trigger).to;
  const [moved] = await tx
    .update(payoutFileItems)
    .set({ state: to, stateChangedAt: now, ...(reasonCode !== undefined ? { reasonCode } : {}) })
    .where(eq(payoutFileItems.id, item.id))
    .returning();
  return moved;
}

/**
 * A pain.002 RJCT of the transfer's attempt in the network (topay/reqpay, or held from there). A
 * repairable reason with no customer cancellation pending leaves the transfer where it is and
 * the attempt REJECTED; otherwise the transfer is rejected and refunded (rejectPayout).
 */
export async function rejectAttempt(
  tx: Tx,
  input: { transfer: TransferRow; item: PayoutAttemptRow; reasonCode: string | null; cancellationPending: boolean },
  now: Date,
) {
  const { transfer, item, reasonCode } = input;
  if (reasonCode && REPAIRABLE_REASONS.has(reasonCode) && !input.cancellationPending) {
    await moveAttempt(tx, item, "bank.rejected", now, reasonCode);
    const rejection = payoutRejection(reasonCode);
    await tx.update(transfers).set({ rejectionReason: rejection.code }).where(eq(transfers.id, transfer.id));
    // The transfer's state does not change, so no transfer.state.changed tells the partner: this does.
    await effectsOf(tx).events.emit({
      subscriptionId: transfer.subscriptionId,
      eventType: "payout.repair.required",
      data: { transferId: transfer.id, attempt: item.attempt, rejectionReason: rejection, customerActionExpected: "REPAIR_PAYOUT" },
      now,
    });
    return;
  }
  await moveAttempt(tx, item, "bank.rejected", now, reasonCode);
  await moveAttempt(tx, { ...item, state: "REJECTED" }, "operator.refunded", now);
  await rejectPayout(tx, transfer, payoutRejection(reasonCode), now);
}

/**
 * The bank returned a payment it had paid (a pain.002 RJCT or a statement's return entry naming
 * the EndToEndId after `paid`): the transfer stays paid (terminal, spec 3.1), the money is back
 * at the payout bank and owed to the customer (ledger), and the refund starts.
 */
export async function returnAfterPaid(tx: Tx, input: { transfer: TransferRow; item: PayoutAttemptRow; reasonCode: string | null }, now: Date) {
  const { transfer, item } = input;
  if (transfer.state !== "paid") {
    throw new DomainError("transfer.stateInvalid", { message: "Only a paid transfer's payout can be returned.", details: { currentState: transfer.state } });
  }
  await moveAttempt(tx, item, "bank.returned", now, input.reasonCode);
  await postPayoutReturnedAfterPaid(tx, transfer, item.id, now);
  return startRefund(tx, transfer, now);
}

export type RepairOutcome = { transferId: string; attempt: number; payoutMethodId: string };

/**
 * Records the repaired destination of a rejected payout (the operator's, or the one the
 * customer's app supplied): the transfer points at the new payout method and its attempt is
 * REPAIRED, to go into the next file. The caller resolves the payout method (new or existing).
 */
/** The latest attempt, locked, when it waits for a repair (or was repaired and not resent yet); else 409 transfer.stateInvalid. */
export async function lockRepairableAttempt(tx: Tx, transfer: TransferRow): Promise<PayoutAttemptRow> {
  const item = await lockLatestAttempt(tx, transfer.id);
  if (!item || (item.state !== "REJECTED" && item.state !== "REPAIRED")) {
    throw new DomainError("transfer.stateInvalid", {
      message: "This transfer has no payout rejected by the bank to repair.",
      details: { currentState: transfer.state },
    });
  }
  return item;
}

export async function repairPayout(tx: Tx, input: { transfer: TransferRow; payoutMethodId: string }, now: Date): Promise<RepairOutcome> {
  const item = await lockRepairableAttempt(tx, input.transfer);
  await moveAttempt(tx, item, "destination.repaired", now);
  await tx.update(transfers).set({ payoutMethodId: input.payoutMethodId, rejectionReason: null }).where(eq(transfers.id, input.transfer.id));
  // Once per rejection: a second correction before the next file changes the destination only.
  if (item.state === "REJECTED") {
    await effectsOf(tx).events.emit({
      subscriptionId: input.transfer.subscriptionId,
      eventType: "payout.repaired",
      data: { transferId: input.transfer.id, attempt: item.attempt, payoutMethodId: input.payoutMethodId, customerActionExpected: "WAIT" },
      now,
    });
  }
  return { transferId: input.transfer.id, attempt: item.attempt, payoutMethodId: input.payoutMethodId };
}

/** The operator refunds a rejected payout instead of repairing it: the transfer is rejected (with the bank's reason) and refunded. */
export async function refundRejectedPayout(tx: Tx, transfer: TransferRow, now: Date): Promise<TransferRow> {
  const item = await lockLatestAttempt(tx, transfer.id);
  if (!item || (item.state !== "REJECTED" && item.state !== "REPAIRED")) {
    throw new DomainError("transfer.stateInvalid", {
      message: "This transfer has no payout rejected by the bank to refund.",
      details: { currentState: transfer.state },
    });
  }
  const rejection: PayoutRejection = payoutRejection(item.reasonCode);
  await moveAttempt(tx, item, "operator.refunded", now);
  return rejectPayout(tx, transfer, rejection, now);
}

/** Rejected payouts waiting for a repair or a refund (the console's list), oldest first. */
export async function payoutsAwaitingRepair(db: Executor, limit = 50) {
  const i = payoutFileItems;
  return db
    .select({ transferId: i.transferId, attempt: i.attempt, reasonCode: i.reasonCode, since: i.stateChangedAt, methodType: payoutMethods.methodType })
    .from(i)
    .innerJoin(transfers, eq(transfers.id, i.transferId))
    .leftJoin(payoutMethods, eq(payoutMethods.id, transfers.payoutMethodId))
    .where(eq(i.state, "REJECTED"))
    .orderBy(payoutFileItems.stateChangedAt)
    .limit(limit);
}
