import { and, count, desc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { networkCancellations, paymentStatusRecords, payoutFileItems, payoutFiles, transfers } from "@/db/schema";
import { bankById } from "./banks";
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
      // The latest attempt's file only: a resent payout's earlier attempt is RESENT (issue 24).
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

/** The payout bank's rejection of a transfer (its pain.002 RJCT) in words, or null (issue 20 item 9: the transfer page). */
export async function payoutRejectionOf(db: Executor, transferId: string): Promise<PayoutRejection | null> {
  const [row] = await db
    .select({ reasonCode: paymentStatusRecords.reasonCode })
    .from(paymentStatusRecords)
    .where(and(eq(paymentStatusRecords.endToEndId, transferId), eq(paymentStatusRecords.status, "RJCT")))
    .limit(1);
  return row ? payoutRejection(row.reasonCode) : null;
}
