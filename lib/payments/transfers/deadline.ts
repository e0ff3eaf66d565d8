import type { Tx } from "@/db";
import { expireOpenFundingSessions } from "./funding-session-expiry";
import { transitionTransfer, type TransferRow } from "./records";
import { transferMachine } from "./state-machine";

/**
 * The 120-minute guard at every read and write (spec 3.1): a pre-funding transfer past its
 * deadline expires now, even if its timer job has not run yet. The row must be locked.
 */
export async function expireIfOverdue(tx: Tx, row: TransferRow, now: Date): Promise<TransferRow> {
  if (!isOverdue(row, now)) return row;
  const expired = await transitionTransfer(tx, row, "timeout", now);
  // Expired while funding: its funding session ends with it (single use, spec 2.8), as on cancel.
  if (row.state === "funding") await expireOpenFundingSessions(tx, row.id, now);
  return expired;
}

/** Whether the guard would expire this transfer at `now` (a read checks before it locks). */
export function isOverdue(row: TransferRow, now: Date): boolean {
  return row.expiresAt.getTime() <= now.getTime() && transferMachine.can(row.state, "timeout");
}
