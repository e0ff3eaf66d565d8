import type { Tx } from "@/db";
import { expireOpenFundingSessions } from "./funding";
import { transitionTransfer, type TransferRow } from "./records";

/**
 * Compliance events on a transfer (spec 3.1 last row): a hold parks any active transfer in
 * spended, remembering its prior state; release restores it or rejects the transfer. Onreview
 * resolution approves to validated or rejects. Used by the sandbox endpoints and the console.
 */
export async function holdTransfer(tx: Tx, row: TransferRow, now: Date): Promise<TransferRow> {
  const held = await transitionTransfer(tx, row, "compliance.hold", now);
  if (row.state === "funding") await expireOpenFundingSessions(tx, row.id, now);
  return held;
}

export async function releaseTransfer(tx: Tx, row: TransferRow, resolution: "RESTORE" | "REJECT", now: Date): Promise<TransferRow> {
  if (resolution === "RESTORE") return transitionTransfer(tx, row, "compliance.restore", now);
  return transitionTransfer(tx, row, "compliance.reject", now, { rejectionReason: "TRF_COMPLIANCE_REJECTED" });
}

export async function reviewTransfer(tx: Tx, row: TransferRow, decision: "APPROVE" | "REJECT", now: Date): Promise<TransferRow> {
  return decision === "APPROVE"
    ? transitionTransfer(tx, row, "review.approved", now)
    : transitionTransfer(tx, row, "review.rejected", now, { rejectionReason: "TRF_REVIEW_REJECTED" });
}
