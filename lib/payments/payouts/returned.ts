/**
 * The payouts returned after they were paid (provider attempts RETURNED, ./routed.ts): the
 * operations alert payout.returned and the payouts console list them, and an operator refunds
 * them. Kept apart from the router so operations use it without the router's imports.
 */
import { and, asc, desc, eq } from "drizzle-orm";
import type { Executor, Tx } from "@/db";
import { payoutProviderAttempts } from "@/db/schema";
import { DomainError } from "@/lib/platform/errors";
import { postReturnedPayoutRefunded } from "@/lib/payments/transfers/postings";
import type { TransferRow } from "@/lib/payments/transfers/records";
import { startRefund, type RefundRow } from "@/lib/payments/transfers/refunds";
import { providerAttemptMachine } from "./provider-attempt-state-machine";

type ProviderAttemptRow = typeof payoutProviderAttempts.$inferSelect;

/** A paid transfer whose payout came back to its provider: the money waits in suspense:returned-payouts for an operator. */
export interface ReturnedPayout {
  transferId: string;
  attemptId: string;
  provider: string;
  amount: string;
  currency: string;
  /** The return's reason code as the provider gave it (RETURNED without one). */
  reasonCode: string | null;
  since: Date;
}

/** The oldest first, at most `limit`. */
export async function returnedPayouts(db: Executor, limit = 100): Promise<ReturnedPayout[]> {
  const a = payoutProviderAttempts;
  return db
    .select({
      transferId: a.transferId,
      attemptId: a.id,
      provider: a.provider,
      amount: a.amount,
      currency: a.currency,
      reasonCode: a.outcomeCode,
      since: a.stateChangedAt,
    })
    .from(a)
    .where(eq(a.state, "RETURNED"))
    .orderBy(asc(a.stateChangedAt), asc(a.id))
    .limit(limit);
}

/**
 * An operator refunds the customer of a payout returned after it was paid (the caller holds the
 * transfer's lock): the returned try is RETURN_REFUNDED, the money leaves
 * suspense:returned-payouts for the transfer's refund owed (conversion and fees reversed,
 * payout.returnRefunded) and the refund starts as any other (startRefund: capped by what the
 * customer paid; its payment recorded under dual control).
 */
export async function refundReturnedPayout(tx: Tx, transfer: TransferRow, now: Date): Promise<{ attempt: ProviderAttemptRow; refund: RefundRow | null }> {
  const a = payoutProviderAttempts;
  const [attempt] = await tx
    .select()
    .from(a)
    .where(and(eq(a.transferId, transfer.id), eq(a.state, "RETURNED")))
    .orderBy(desc(a.seq))
    .limit(1)
    .for("update");
  if (!attempt || transfer.state !== "paid") {
    throw new DomainError("transfer.stateInvalid", {
      message: "This transfer has no returned payout to refund.",
      details: { currentState: transfer.state },
    });
  }
  const [moved] = await tx
    .update(a)
    .set({ state: providerAttemptMachine.next(attempt.state, "operator.refunded").to, stateChangedAt: now })
    .where(eq(a.id, attempt.id))
    .returning();
  await postReturnedPayoutRefunded(tx, transfer, attempt.id, now);
  return { attempt: moved, refund: await startRefund(tx, transfer, now) };
}
