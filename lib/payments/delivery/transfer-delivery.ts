/**
 * A transfer's delivery estimate, recomputed from its state at each read so it
 * follows the transfer as it moves: counted from the funding once funded, from now before (as if
 * funded now) and while a review or a compliance hold stops it (basis ON_HOLD). None once the
 * transfer has ended (paid, cancelled...).
 */
import type { TransferState } from "@/lib/payments/transfers/state-machine";
import { corridorOfTransfer } from "@/lib/payments/corridors/corridors";
import { estimateDeliveryBy, type DeliveryBasis } from "./estimates";

interface Transfer {
  state: TransferState;
  corridor: string;
  payoutMethod: string;
  /** The configuration version it was accepted under: the corridor its estimate counts with. */
  configurationVersion: number | null;
}

/** When the transfer was funded (its last move to funded), undefined before. */
export function fundedAt(history: readonly { state: string; transitionedAt: Date }[]): Date | undefined {
  return history.findLast((h) => h.state === "funded")?.transitionedAt;
}

export function transferDelivery(
  transfer: Transfer,
  history: readonly { state: string; transitionedAt: Date }[],
  now: Date,
): { estimatedDeliveryBy: Date; basis: DeliveryBasis } | undefined {
  const funded = fundedAt(history);
  let basis: DeliveryBasis;
  let from: Date;
  if (transfer.state === "onreview" || transfer.state === "spended") [basis, from] = ["ON_HOLD", now];
  else if (["funded", "topay", "reqpay"].includes(transfer.state) && funded) [basis, from] = ["FUNDED", funded];
  else if (["registered", "validated", "funding"].includes(transfer.state)) [basis, from] = ["IF_FUNDED_NOW", now];
  else return undefined;
  const by = estimateDeliveryBy(transfer.corridor, transfer.payoutMethod, from, corridorOfTransfer(transfer));
  return by && { estimatedDeliveryBy: by, basis };
}

/** The date available of a funded transfer (receipt, claims window): counted from the funding. */
export function dateAvailable(transfer: Pick<Transfer, "corridor" | "payoutMethod" | "configurationVersion">, funded: Date): Date {
  return estimateDeliveryBy(transfer.corridor, transfer.payoutMethod, funded, corridorOfTransfer(transfer)) ?? funded;
}
