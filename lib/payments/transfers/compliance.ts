import { and, eq, gt } from "drizzle-orm";
import type { Tx } from "@/db";
import { fundingSessions } from "@/db/schema";
import { expireOpenFundingSessions } from "./funding-session-expiry";
import { transitionTransfer, type TransferRow } from "./records";
import { startRefund } from "./refunds";

/**
 * Compliance events on a transfer (spec 3.1 last row): a hold (lib/compliance/cases/hold.ts) parks
 * any active transfer in spended, remembering its prior state; release restores it or rejects the
 * transfer. Onreview resolution approves to validated or rejects. Used by the sandbox endpoints and
 * the console.
 */
export async function releaseTransfer(tx: Tx, row: TransferRow, resolution: "RESTORE" | "REJECT", now: Date): Promise<TransferRow> {
  if (resolution === "RESTORE") {
    const restored = await transitionTransfer(tx, row, "compliance.restore", now);
    // The hold closed the funding session (or its 30 minutes ran out meanwhile). Restored to
    // funding without one, the customer could neither pay nor confirm again until the 120-minute
    // expiry; like a session that expired on its own, the transfer returns to validated, where a
    // new confirm opens a new session (spec 4.1 rule 11).
    if (restored.state === "funding") {
      const [open] = await tx
        .select({ id: fundingSessions.id })
        .from(fundingSessions)
        .where(and(eq(fundingSessions.transferId, restored.id), eq(fundingSessions.state, "OPEN"), gt(fundingSessions.expiresAt, now)))
        .limit(1);
      if (!open) {
        await expireOpenFundingSessions(tx, restored.id, now);
        return transitionTransfer(tx, restored, "funding.expired", now);
      }
    }
    return restored;
  }
  const rejected = await transitionTransfer(tx, row, "compliance.reject", now, { rejectionReason: "TRF_COMPLIANCE_REJECTED" });
  // Held after funding (funded, or with the payout bank: the payout is stopped): the customer's
  // money is owed back, so the refund starts as on a cancel (docs/decisions.md, Ledger).
  if (row.priorState && FUNDED_PRIORS.has(row.priorState)) await startRefund(tx, rejected, now);
  return rejected;
}

const FUNDED_PRIORS: ReadonlySet<string> = new Set(["funded", "topay", "reqpay"]);

export async function reviewTransfer(tx: Tx, row: TransferRow, decision: "APPROVE" | "REJECT", now: Date): Promise<TransferRow> {
  return decision === "APPROVE"
    ? transitionTransfer(tx, row, "review.approved", now)
    : transitionTransfer(tx, row, "review.rejected", now, { rejectionReason: "TRF_REVIEW_REJECTED" });
}
