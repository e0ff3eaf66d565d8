import type { Tx } from "@/db";
import { holdTransfer } from "@/lib/compliance";
import {
  releaseTransfer,
  reviewTransfer,
  advanceNetwork,
  resolveNetworkCancellation,
  type NetworkCancellationOutcome,
  transferInScope,
  type TransferRow,
  transferDetail,
} from "@/lib/payments";

/**
 * The sandbox's stand-ins for the payout network, the compliance team and the reviewers
 * (decisions section 7), each going through the same domain functions as the real ones: the
 * adapter of the /v1/sandbox/transfers/{id}/… endpoints, so it may call payments and compliance.
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
