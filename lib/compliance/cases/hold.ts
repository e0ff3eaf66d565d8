import type { Tx } from "@/db";
import { expireOpenFundingSessions, transitionTransfer, type TransferRow } from "@/lib/payments";
import { raiseAlert } from "./cases";

/**
 * A compliance hold (spec 3.1 last row): parks any active transfer in spended, remembering its
 * prior state (payments' machine; release and review stay there, lib/payments/transfers/compliance.ts),
 * closes its open funding session, and raises the hold as an alert in the customer's case. Used by
 * screening cases, the console and the sandbox endpoints.
 */
export async function holdTransfer(tx: Tx, row: TransferRow, now: Date): Promise<TransferRow> {
  const held = await transitionTransfer(tx, row, "compliance.hold", now);
  if (row.state === "funding") await expireOpenFundingSessions(tx, row.id, now);
  // Every compliance hold is an alert in the customer's case: console only.
  await raiseAlert(tx, { customerId: row.customerId, kind: "COMPLIANCE_HOLD", transferId: row.id, summary: `Held from ${row.state}`, now });
  return held;
}
