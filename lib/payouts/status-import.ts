import { and, eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { newId } from "@/db/ids";
import { paymentStatusRecords, payoutFileItems, transfers } from "@/db/schema";
import { logger } from "@/lib/log";
import { confirmPaid, markInProgress, rejectPayout } from "@/lib/transfers/network";
import { pendingNetworkCancellation } from "@/lib/transfers/network-cancellations";
import type { TransferRow } from "@/lib/transfers/records";
import { parsePain002, type TransactionStatus } from "./pain002";
import { payoutRejection, STATUS_CLASS } from "./reject-reasons";

export interface StatusImportCounts {
  /** TxInfAndSts entries in the report. */
  transactions: number;
  /** Recorded against their transfer (moved, or already in the state the status says). */
  applied: number;
  /** No transfer of ours in a payout file, an unknown status, or a status its transfer's state refuses (paid then RJCT, held). */
  unmatched: number;
  /** The same OrgnlEndToEndId and status imported before: nothing changes. */
  duplicates: number;
  /** Each unmatched line (issue 20 item 9): which OrgnlEndToEndId and status, and why, for the operator. */
  unmatchedLines: UnmatchedLine[];
}

export interface UnmatchedLine {
  endToEndId: string;
  status: string;
  reason: "NO_SUCH_TRANSFER" | "UNKNOWN_STATUS" | "STATE_REFUSES";
  /** The reason in words, naming the transfer's state when it refuses the status. */
  message: string;
}

const NETWORK_STATES = new Set(["topay", "reqpay"]);
const inNetwork = (t: TransferRow) => NETWORK_STATES.has(t.state) || (t.state === "spended" && NETWORK_STATES.has(t.priorState ?? ""));
const cancelPending = async (tx: Tx, t: TransferRow) => (await pendingNetworkCancellation(tx, t.id)) !== undefined;

async function lockFiledTransfer(tx: Tx, endToEndId: string, partnerId?: string): Promise<TransferRow | undefined> {
  const [row] = await tx
    .select({ transfer: transfers })
    .from(transfers)
    .innerJoin(payoutFileItems, eq(payoutFileItems.transferId, transfers.id))
    .where(and(eq(transfers.id, endToEndId), partnerId ? eq(transfers.partnerId, partnerId) : undefined))
    .for("update", { of: transfers });
  return row?.transfer;
}

/** Moves the transfer as the status says; false when its state refuses the status (nothing recorded). */
async function apply(tx: Tx, transfer: TransferRow, s: TransactionStatus, now: Date): Promise<boolean> {
  switch (STATUS_CLASS[s.status]) {
    case "settled":
      if (transfer.state === "paid") return true;
      // Held (spended) transfers wait for the release unless a cancellation is pending (its answer lands while held).
      if (!NETWORK_STATES.has(transfer.state) && !(inNetwork(transfer) && (await cancelPending(tx, transfer)))) return false;
      await confirmPaid(tx, transfer, now);
      return true;
    case "inProgress":
      await markInProgress(tx, transfer, now);
      return true;
    case "rejected":
      if (transfer.state === "rejected" || transfer.state === "canceled") return true;
      if (!inNetwork(transfer)) return false;
      await rejectPayout(tx, transfer, payoutRejection(s.reasonCode), now);
      return true;
    default:
      return false;
  }
}

/**
 * Imports a pain.002 status report (console upload, CLI, sandbox endpoint: this one function).
 * Each TxInfAndSts is matched by OrgnlEndToEndId (our transferId, in a payout file; with
 * `partnerId`, that partner's only) and applied once per (OrgnlEndToEndId, TxSts): a report
 * imported twice changes nothing. One transaction: the report applies whole or not at all.
 */
export async function importPaymentStatusReport(tx: Tx, input: { xml: string; now: Date; partnerId?: string }): Promise<StatusImportCounts> {
  const report = parsePain002(input.xml);
  const counts: StatusImportCounts = { transactions: report.transactions.length, applied: 0, unmatched: 0, duplicates: 0, unmatchedLines: [] };
  const unmatched = (s: TransactionStatus, reason: UnmatchedLine["reason"], message: string) => {
    counts.unmatched++;
    counts.unmatchedLines.push({ endToEndId: s.endToEndId, status: s.status, reason, message });
  };
  for (const s of report.transactions) {
    const transfer = await lockFiledTransfer(tx, s.endToEndId, input.partnerId);
    if (!transfer) {
      unmatched(s, "NO_SUCH_TRANSFER", "no transfer in a payout file has this EndToEndId");
      continue;
    }
    const [seen] = await tx
      .select({ id: paymentStatusRecords.id })
      .from(paymentStatusRecords)
      .where(and(eq(paymentStatusRecords.endToEndId, s.endToEndId), eq(paymentStatusRecords.status, s.status)));
    if (seen) {
      counts.duplicates++;
      continue;
    }
    if (!(await apply(tx, transfer, s, input.now))) {
      logger().warn({ transferId: transfer.id, state: transfer.state, txStatus: s.status }, "payment status does not apply to the transfer's state");
      if (!STATUS_CLASS[s.status]) unmatched(s, "UNKNOWN_STATUS", `${s.status} is not a status this service reads (ACSC, ACCC, ACSP, PDNG, RJCT...)`);
      else unmatched(s, "STATE_REFUSES", `the transfer is ${transfer.state}: ${s.status} does not apply to it`);
      continue;
    }
    await tx.insert(paymentStatusRecords).values({
      id: newId("pst"),
      endToEndId: s.endToEndId,
      status: s.status,
      reasonCode: s.reasonCode,
      transferId: transfer.id,
      reportMessageId: report.messageId,
      importedAt: input.now,
    });
    counts.applied++;
  }
  const { unmatchedLines: _lines, ...totals } = counts;
  logger().info({ reportMessageId: report.messageId, ...totals }, "payment status report imported");
  return counts;
}

/**
 * One import in words, for the console's notice (issue 20 item 9): the counts, then each
 * unmatched line (EndToEndId, status, why), at most `maxLines` of them.
 */
export function statusImportSummary(name: string, counts: StatusImportCounts, maxLines = Infinity): string {
  const shown = counts.unmatchedLines.slice(0, maxLines).map((l) => ` ${l.endToEndId} ${l.status}: ${l.message}.`);
  const rest = counts.unmatchedLines.length - shown.length;
  return [
    `Imported ${name}: ${counts.transactions} transactions, ${counts.applied} applied, ${counts.unmatched} unmatched, ${counts.duplicates} duplicates.`,
    shown.length ? ` Unmatched:${shown.join("")}` : "",
    rest > 0 ? ` …and ${rest} more (npm run payment-status:import lists them all).` : "",
  ].join("");
}
