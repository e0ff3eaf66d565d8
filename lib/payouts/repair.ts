import type { Tx } from "@/db";
import { payoutMethods } from "@/db/schema";
import { payoutMethodView } from "@/lib/beneficiaries/records";
import { notFound } from "@/lib/errors";
import { lockTransfer, transferInScope, type TransferRow } from "@/lib/transfers/records";
import { customerActionExpectedFor, nextStepFor } from "@/lib/transfers/state-machine";
import { resolvePayoutMethod, type SubmitInput } from "@/lib/transfers/submit";
import { repairPayout } from "./attempts";

/**
 * A new destination for a payout the bank rejected (issue 24 item 8), from the customer's app
 * (POST /v1/core/transfers/{transferId}/payout-repair) or an operator (console): the same rules
 * as at submit (PayoutMethodRequest: an existing method of the beneficiary, or a new identifier
 * checked for its format and stored encrypted), then the attempt is REPAIRED and the payout goes
 * into the next file.
 */
async function repairWith(tx: Tx, transfer: TransferRow, payoutMethod: SubmitInput["payoutMethod"], now: Date) {
  const { method, insert } = await resolvePayoutMethod(tx, transfer, { payoutMethod }, now);
  if (insert) await tx.insert(payoutMethods).values(method);
  await repairPayout(tx, { transfer, payoutMethodId: method.id }, now);
  return {
    transferId: transfer.id,
    transferStatus: transfer.state,
    payoutMethod: payoutMethodView(method),
    payoutRepairedAt: now.toISOString(),
    nextStep: nextStepFor(transfer.state),
    customerActionExpected: customerActionExpectedFor(transfer.state),
  };
}

export async function repairPayoutForCustomer(
  tx: Tx,
  input: { subscriptionId: string; transferId: string; payoutMethod: SubmitInput["payoutMethod"]; now: Date },
) {
  const transfer = await transferInScope(tx, input.subscriptionId, input.transferId, true);
  return repairWith(tx, transfer, input.payoutMethod, input.now);
}

export async function repairPayoutByOperator(tx: Tx, input: { transferId: string; payoutMethod: SubmitInput["payoutMethod"]; now: Date }) {
  const transfer = await lockTransfer(tx, input.transferId);
  if (!transfer) throw notFound("transfer");
  return repairWith(tx, transfer, input.payoutMethod, input.now);
}
