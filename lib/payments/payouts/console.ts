import { and, asc, count, desc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { networkCancellations, paymentStatusRecords, payoutFileItems, payoutFiles, transfers } from "@/db/schema";
import { attemptsOf } from "./routed";
import { bankById } from "./banks";
import type { PayoutAttemptState } from "./payout-attempt-state-machine";
import { payoutRejection, type PayoutRejection } from "./reject-reasons";

export const PAYOUT_FILES_PAGE_SIZE = 20;

/** The console's list: newest first, each with its bank's name and how many of its transfers are in each state. */
export async function listPayoutFiles(db: Executor, page: number) {
  const rows = await db
    .select({
      id: payoutFiles.id,
      bankId: payoutFiles.bankId,
      currency: payoutFiles.currency,
      partnerId: payoutFiles.partnerId,
      transactionCount: payoutFiles.transactionCount,
      controlSum: payoutFiles.controlSum,
      fileName: payoutFiles.fileName,
      writtenAt: payoutFiles.writtenAt,
      createdAt: payoutFiles.createdAt,
    })
    .from(payoutFiles)
    .orderBy(desc(payoutFiles.createdAt), desc(payoutFiles.id))
    .limit(PAYOUT_FILES_PAGE_SIZE + 1)
    .offset((page - 1) * PAYOUT_FILES_PAGE_SIZE);
  const ids = rows.map((r) => r.id);
  const states = ids.length
    ? await db
        .select({ fileId: payoutFileItems.payoutFileId, state: transfers.state, n: count() })
        .from(payoutFileItems)
        .innerJoin(transfers, eq(transfers.id, payoutFileItems.transferId))
        .where(inArray(payoutFileItems.payoutFileId, ids))
        .groupBy(payoutFileItems.payoutFileId, transfers.state)
    : [];
  const items = rows.slice(0, PAYOUT_FILES_PAGE_SIZE).map((r) => ({
    ...r,
    bankName: bankById(r.bankId)?.name ?? r.bankId,
    states: Object.fromEntries(states.filter((s) => s.fileId === r.id).map((s) => [s.state, Number(s.n)])) as Record<string, number>,
  }));
  return { items, hasMore: rows.length > PAYOUT_FILES_PAGE_SIZE };
}

/** Transfers in a payout file whose customer asked to cancel: an operator records the bank's answer. */
export async function pendingNetworkCancellations(db: Executor) {
  return (
    db
      .select({ transferId: transfers.id, state: transfers.state, payoutFileId: payoutFileItems.payoutFileId, requestedAt: networkCancellations.requestedAt })
      .from(transfers)
      // The latest attempt's file only: a resent payout's earlier attempt is RESENT.
      .innerJoin(payoutFileItems, and(eq(payoutFileItems.transferId, transfers.id), ne(payoutFileItems.state, "RESENT")))
      .innerJoin(networkCancellations, and(eq(networkCancellations.transferId, transfers.id), eq(networkCancellations.state, "PENDING")))
      .where(inArray(transfers.state, ["topay", "reqpay", "spended"]))
      .orderBy(transfers.stateChangedAt)
      .limit(50)
  );
}

/** Payout files still waiting for the bank: at least one of their transfers is neither paid nor rejected (topay or reqpay). */
export async function payoutFilesWaitingCount(db: Executor): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(distinct ${payoutFileItems.payoutFileId})::int` })
    .from(payoutFileItems)
    .innerJoin(transfers, eq(transfers.id, payoutFileItems.transferId))
    .where(inArray(transfers.state, ["topay", "reqpay"]));
  return Number(row?.n ?? 0);
}

/**
 * The payout bank's rejection of the transfer's latest payout attempt (its pain.002 RJCT) in
 * words, or null (the transfer page). An earlier attempt's rejection, repaired
 * and resent, is no longer the transfer's: it shows in the attempts list.
 */
export async function payoutRejectionOf(db: Executor, transferId: string): Promise<PayoutRejection | null> {
  const latest = sql`(select max(${payoutFileItems.attempt}) from ${payoutFileItems} where ${payoutFileItems.transferId} = ${transferId})`;
  const [row] = await db
    .select({ reasonCode: paymentStatusRecords.reasonCode })
    .from(paymentStatusRecords)
    .where(and(eq(paymentStatusRecords.endToEndId, transferId), eq(paymentStatusRecords.status, "RJCT"), sql`${paymentStatusRecords.attempt} = ${latest}`))
    .limit(1);
  return row ? payoutRejection(row.reasonCode) : null;
}

export interface PayoutAttemptView {
  attempt: number;
  state: PayoutAttemptState;
  /** The bank's reason code of a rejection or return, in words too; null without one. */
  reasonCode: string | null;
  reason: PayoutRejection | null;
  amount: string;
  currency: string;
  payoutFileId: string;
  fileName: string;
  /** When the file carrying it was made, and when the attempt last changed state (null: still as sent). */
  sentAt: Date;
  stateChangedAt: Date | null;
  /** The pain.002 statuses the bank sent for this attempt, oldest first. */
  statuses: { status: string; reasonCode: string | null; reportMessageId: string; importedAt: Date }[];
}

/** Every payout attempt of a transfer, first first, with its file and the bank's statuses (the transfer page). */
export async function payoutAttemptsOf(db: Executor, transferId: string): Promise<PayoutAttemptView[]> {
  const [items, statuses] = await Promise.all([
    db
      .select({
        attempt: payoutFileItems.attempt,
        state: payoutFileItems.state,
        reasonCode: payoutFileItems.reasonCode,
        amount: payoutFileItems.amount,
        currency: payoutFiles.currency,
        payoutFileId: payoutFiles.id,
        fileName: payoutFiles.fileName,
        sentAt: payoutFiles.createdAt,
        stateChangedAt: payoutFileItems.stateChangedAt,
      })
      .from(payoutFileItems)
      .innerJoin(payoutFiles, eq(payoutFiles.id, payoutFileItems.payoutFileId))
      .where(eq(payoutFileItems.transferId, transferId))
      .orderBy(asc(payoutFileItems.attempt)),
    db
      .select({
        attempt: paymentStatusRecords.attempt,
        status: paymentStatusRecords.status,
        reasonCode: paymentStatusRecords.reasonCode,
        reportMessageId: paymentStatusRecords.reportMessageId,
        importedAt: paymentStatusRecords.importedAt,
      })
      .from(paymentStatusRecords)
      .where(eq(paymentStatusRecords.transferId, transferId))
      .orderBy(asc(paymentStatusRecords.importedAt), asc(paymentStatusRecords.id)),
  ]);
  return items.map((i) => ({
    ...i,
    reason: i.reasonCode ? payoutRejection(i.reasonCode) : null,
    statuses: statuses.filter((s) => s.attempt === i.attempt).map(({ attempt: _, ...s }) => s),
  }));
}

/** The routed payout's tries of a transfer (the transfer page): provider, state, outcome, the provider's answer. */
export async function providerAttemptsOf(db: Executor, transferId: string) {
  return attemptsOf(db, transferId);
}
