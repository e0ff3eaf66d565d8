import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { newId } from "@/db/ids";
import { paymentStatusRecords, payoutFileItems, transfers } from "@/db/schema";
import { logger } from "@/lib/platform/log";
import { confirmPaid, markInProgress } from "@/lib/payments/transfers/network";
import { pendingNetworkCancellation } from "@/lib/payments/transfers/network-cancellations";
import type { TransferRow } from "@/lib/payments/transfers/records";
import { lockLatestAttempt, moveAttempt, rejectAttempt, returnAfterPaid, type PayoutAttemptRow } from "./attempts";
import { bankFileAnswered, isRouted } from "./routed";
import { parsePain002, type PaymentStatusReport, type TransactionStatus } from "./pain002";
import { STATUS_CLASS } from "./reject-reasons";

export interface StatusImportCounts {
  /** TxInfAndSts entries in the report, and the transactions of files it rejects whole. */
  transactions: number;
  /** Recorded against their transfer (moved, or already in the state the status says). */
  applied: number;
  /** No transfer of ours in a payout file, an unknown status, a status its transfer's state refuses (paid then RJCT, held), or a status of an earlier attempt (stale). */
  unmatched: number;
  /** The same OrgnlEndToEndId and status imported before: nothing changes. */
  duplicates: number;
  /** Each unmatched line: which OrgnlEndToEndId and status, and why, for the operator. */
  unmatchedLines: UnmatchedLine[];
}

export interface UnmatchedLine {
  endToEndId: string;
  status: string;
  reason: "NO_SUCH_TRANSFER" | "UNKNOWN_STATUS" | "STATE_REFUSES" | "STALE_ATTEMPT";
  /** The reason in words, naming the transfer's state when it refuses the status. */
  message: string;
}

const NETWORK_STATES = new Set(["topay", "reqpay"]);
const inNetwork = (t: TransferRow) => NETWORK_STATES.has(t.state) || (t.state === "spended" && NETWORK_STATES.has(t.priorState ?? ""));
const cancelPending = async (tx: Tx, t: TransferRow) => (await pendingNetworkCancellation(tx, t.id)) !== undefined;

async function lockFiledTransfer(tx: Tx, endToEndId: string, partnerId?: string): Promise<TransferRow | undefined> {
  const filed = sql`exists (select 1 from ${payoutFileItems} where ${payoutFileItems.transferId} = ${transfers.id})`;
  const [row] = await tx
    .select()
    .from(transfers)
    .where(and(eq(transfers.id, endToEndId), filed, partnerId ? eq(transfers.partnerId, partnerId) : undefined))
    .for("update");
  return row;
}

/**
 * A group or payment-block rejection (GrpSts or PmtInfSts RJCT) rejects every
 * transaction of that file the report does not list on its own, with the block's reason.
 */
async function withBlockRejections(tx: Tx, report: PaymentStatusReport): Promise<TransactionStatus[]> {
  const listed = new Set(report.transactions.map((t) => t.endToEndId));
  const out = [...report.transactions];
  for (const block of report.blocks.filter((b) => STATUS_CLASS[b.status] === "rejected")) {
    const items = await tx
      .select({ transferId: payoutFileItems.transferId, attempt: payoutFileItems.attempt })
      .from(payoutFileItems)
      .where(eq(payoutFileItems.payoutFileId, block.payoutFileId))
      .orderBy(payoutFileItems.transferId);
    for (const i of items.filter((i) => !listed.has(i.transferId))) {
      listed.add(i.transferId);
      out.push({ endToEndId: i.transferId, status: block.status, reasonCode: block.reasonCode, attempt: i.attempt });
    }
  }
  return out;
}

/**
 * The attempt a line answers: the file rejection's own, the OrgnlInstrId's `/<n>` (the first
 * attempt's InstrId is the EndToEndId), or the attempt the named payout file carried. Undefined
 * when the bank names neither (a report not echoing our ids).
 */
async function attemptAnswered(tx: Tx, transferId: string, s: TransactionStatus): Promise<number | undefined> {
  if (s.attempt !== undefined) return s.attempt;
  if (s.instructionId === transferId) return 1;
  const resend = s.instructionId?.startsWith(`${transferId}/`) ? Number(s.instructionId.slice(transferId.length + 1)) : NaN;
  if (Number.isSafeInteger(resend) && resend > 0) return resend;
  if (!s.payoutFileId) return undefined;
  const [item] = await tx
    .select({ attempt: payoutFileItems.attempt })
    .from(payoutFileItems)
    .where(and(eq(payoutFileItems.payoutFileId, s.payoutFileId), eq(payoutFileItems.transferId, transferId)));
  return item?.attempt;
}

/** Moves the transfer as the status says; false when its state refuses the status (nothing recorded). */
async function apply(tx: Tx, transfer: TransferRow, item: PayoutAttemptRow, s: TransactionStatus, now: Date): Promise<boolean> {
  const sent = item.state === "SENT";
  switch (STATUS_CLASS[s.status]) {
    case "settled":
      if (transfer.state === "paid") return true;
      // A settlement of an attempt the bank rejected contradicts it: the operator looks.
      if (!sent) return false;
      // Held (spended) transfers wait for the release unless a cancellation is pending (its answer lands while held).
      if (!NETWORK_STATES.has(transfer.state) && !(inNetwork(transfer) && (await cancelPending(tx, transfer)))) return false;
      await confirmPaid(tx, transfer, now);
      await bankFileAnswered(tx, transfer, "paid", null, now);
      return true;
    case "inProgress":
      if (!sent) return false;
      await markInProgress(tx, transfer, now);
      return true;
    case "rejected":
      if (transfer.state === "rejected" || transfer.state === "canceled") return true;
      // Returned after it was paid: the transfer stays paid and its refund is owed.
      if (transfer.state === "paid" && sent) {
        await returnAfterPaid(tx, { transfer, item, reasonCode: s.reasonCode }, now);
        return true;
      }
      if (!inNetwork(transfer) || !sent) return false;
      {
        const cancellationPending = await cancelPending(tx, transfer);
        // Routed: the provider try takes the refusal (repair, or the next provider); a pending cancellation still ends the transfer.
        if (!cancellationPending && isRouted() && (await bankFileAnswered(tx, transfer, "rejected", s.reasonCode, now))) {
          await moveAttempt(tx, item, "route.failedOver", now, s.reasonCode);
          return true;
        }
        await rejectAttempt(tx, { transfer, item, reasonCode: s.reasonCode, cancellationPending }, now);
      }
      return true;
    default:
      return false;
  }
}

/**
 * Imports a pain.002 status report (console upload, CLI, sandbox endpoint: this one function).
 * Each TxInfAndSts is matched by OrgnlEndToEndId (our transferId, in a payout file; with
 * `partnerId`, that partner's only) and applied once per (OrgnlEndToEndId, TxSts, attempt): a
 * report imported twice changes nothing. A RJCT of the destination waits for a repair
 * (attempts.ts); a RJCT after paid is a return; a file rejected whole rejects each of its lines. One transaction: the report applies whole or not at all.
 */
export async function importPaymentStatusReport(tx: Tx, input: { xml: string; now: Date; partnerId?: string }): Promise<StatusImportCounts> {
  const report = parsePain002(input.xml);
  const counts: StatusImportCounts = { transactions: report.transactions.length, applied: 0, unmatched: 0, duplicates: 0, unmatchedLines: [] };
  const unmatched = (s: TransactionStatus, reason: UnmatchedLine["reason"], message: string) => {
    counts.unmatched++;
    counts.unmatchedLines.push({ endToEndId: s.endToEndId, status: s.status, reason, message });
  };
  const statuses = await withBlockRejections(tx, report);
  counts.transactions = statuses.length;
  for (const s of statuses) {
    const transfer = await lockFiledTransfer(tx, s.endToEndId, input.partnerId);
    if (!transfer) {
      unmatched(s, "NO_SUCH_TRANSFER", "no transfer in a payout file has this EndToEndId");
      continue;
    }
    // A status applies to the attempt it answers, and only while that is the latest: a late or
    // re-imported status of an earlier attempt (a resend followed) must not move the resend. A
    // report naming no file of ours is read as the latest attempt's only while there is one.
    const item = (await lockLatestAttempt(tx, transfer.id))!;
    const attempt = (await attemptAnswered(tx, transfer.id, s)) ?? (item.attempt === 1 ? 1 : undefined);
    const [seen] =
      attempt === undefined
        ? []
        : await tx
            .select({ id: paymentStatusRecords.id })
            .from(paymentStatusRecords)
            .where(
              and(eq(paymentStatusRecords.endToEndId, s.endToEndId), eq(paymentStatusRecords.status, s.status), eq(paymentStatusRecords.attempt, attempt)),
            );
    if (seen) {
      counts.duplicates++;
      continue;
    }
    if (attempt !== item.attempt) {
      const which = attempt === undefined ? "names no payout file of its attempts" : `answers attempt ${attempt}`;
      unmatched(s, "STALE_ATTEMPT", `the status ${which}; the transfer's latest attempt is ${item.attempt}: nothing changes`);
      continue;
    }
    if (!(await apply(tx, transfer, item, s, input.now))) {
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
      attempt: item.attempt,
    });
    counts.applied++;
  }
  const { unmatchedLines: _lines, ...totals } = counts;
  logger().info({ reportMessageId: report.messageId, ...totals }, "payment status report imported");
  return counts;
}

/**
 * One import in words, for the console's notice: the counts, then each
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
