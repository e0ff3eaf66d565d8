import type { Tx } from "@/db";
import { holdTransfer } from "@/lib/compliance";
import { releaseTransfer, reviewTransfer } from "./compliance";
import { advanceNetwork, resolveNetworkCancellation, type NetworkCancellationOutcome } from "./network";
import { transferInScope, type TransferRow } from "./records";
import { transferDetail } from "./view";

/**
 * The sandbox's stand-ins for the payout network, the compliance team and the reviewers
 * (decisions section 7), each going through the same domain functions as the real ones.
 */
export type SandboxAction =
  | { kind: "advance"; to: "topay" | "reqpay" | "paid" }
  | { kind: "networkCancellation"; outcome: NetworkCancellationOutcome }
  | { kind: "hold" }
  | { kind: "release"; resolution: "RESTORE" | "REJECT" }
  | { kind: "review"; decision: "APPROVE" | "REJECT" };

export async function applySandboxAction(tx: Tx, input: { subscriptionId: string; transferId: string; action: SandboxAction; now: Date }) {
  const row = await transferInScope(tx, input.subscriptionId, input.transferId, true);
  const { action, now } = input;
  let after: TransferRow;
  switch (action.kind) {
    case "advance":
      after = await advanceNetwork(tx, row, action.to, now);
      break;
    case "networkCancellation":
      after = await resolveNetworkCancellation(tx, row, action.outcome, now);
      break;
    case "hold":
      after = await holdTransfer(tx, row, now);
      break;
    case "release":
      after = await releaseTransfer(tx, row, action.resolution, now);
      break;
    case "review":
      after = await reviewTransfer(tx, row, action.decision, now);
      break;
  }
  return transferDetail(tx, after, now);
}
