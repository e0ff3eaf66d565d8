import { and, eq, or } from "drizzle-orm";
import type { Tx } from "@/db";
import { payoutMethods, screeningCases } from "@/db/schema";
import { beneficiaryInScope, payoutMethodView } from "@/lib/payments/beneficiaries/records";
import { corridorOfTransfer } from "@/lib/payments/corridors/corridors";
import { refreshForTransfers } from "@/lib/payments/corridors/versions";
import { destinationCipher } from "@/lib/platform/crypto/destination-cipher";
import { DomainError, notFound, validationError } from "@/lib/platform/errors";
import { checkIdentifierSubstance } from "@/lib/payments/payout-identifiers/substantive-check";
import { paymentToBeneficiaryCheck } from "../beneficiaries/payment-check";
import { lockTransfer, transferInScope, type TransferRow } from "@/lib/payments/transfers/records";
import { customerActionExpectedFor, nextStepFor } from "@/lib/payments/transfers/state-machine";
import { resolvePayoutMethod, type SubmitInput } from "@/lib/payments/transfers/submit";
import { lockRepairableAttempt, repairPayout } from "./attempts";
import { dedupeKey } from "@/lib/platform/jobs/queue";
import { effectsOf } from "@/lib/platform/unit-of-work";
import { isRouted, rejectedRoutedAttempt, repairRoutedPayout } from "./routed";

/**
 * A new destination for a payout the bank rejected, from the customer's app
 * (POST /v1/core/transfers/{transferId}/payout-repair) or an operator (console): the same rules
 * as at submit (PayoutMethodRequest: an existing method of the beneficiary, or a new identifier
 * checked for its format and stored encrypted), then the attempt is REPAIRED and the payout goes
 * into the next file.
 */
/**
 * The checks submit and the fast-check run on a destination, run again on the new one (a repair
 * does not pass the fast-check again): the beneficiary may receive money (a blocked one flags the
 * customer, as at submit), no open screening case on the beneficiary or the customer, and the
 * identifier's substance (check digits, the number plan of the destination country).
 */
async function checkNewDestination(tx: Tx, transfer: TransferRow, method: typeof payoutMethods.$inferSelect, now: Date) {
  await paymentToBeneficiaryCheck(tx, await beneficiaryInScope(tx, transfer.subscriptionId, transfer.beneficiaryId), now);
  const subject = (type: "beneficiary" | "customer", id: string) => and(eq(screeningCases.subjectType, type), eq(screeningCases.subjectId, id));
  const [cased] = await tx
    .select({ id: screeningCases.id })
    .from(screeningCases)
    .where(and(eq(screeningCases.state, "OPEN"), or(subject("beneficiary", transfer.beneficiaryId), subject("customer", transfer.customerId))))
    .limit(1);
  if (cased)
    throw new DomainError("beneficiary.stateInsufficient", {
      message: "The payout cannot be redirected while a compliance review is open; try again later.",
      details: { beneficiaryId: transfer.beneficiaryId },
    });
  // The new destination is checked as submit checked the first: against the transfer's own version's corridor.
  await refreshForTransfers(tx, [transfer]);
  const corridor = corridorOfTransfer(transfer)!;
  const substance = checkIdentifierSubstance({
    methodType: method.methodType,
    identifier: (await destinationCipher(tx)).decrypt(method.destinationIdentifierEncrypted, method.id),
    destinationCountry: corridor.destinationCountry.alpha2,
    bankAccountFormat: corridor.bankAccount.format,
  });
  if (!substance.ok)
    throw validationError(
      [{ field: "payoutMethod.destinationIdentifier", code: "validation.fieldInvalid", message: `The destination fails its check (${substance.reasonCode}).` }],
      "validation.fieldInvalid",
      "The new destination is not a valid account for this corridor.",
    );
}

async function repairWith(tx: Tx, transfer: TransferRow, payoutMethod: SubmitInput["payoutMethod"], now: Date) {
  // A routed payout refused by its provider, or a file rail's rejected attempt.
  const routedTry = await rejectedRoutedAttempt(tx, transfer.id);
  if (!routedTry) await lockRepairableAttempt(tx, transfer);
  const { method, insert } = await resolvePayoutMethod(tx, transfer, { payoutMethod }, now);
  await checkNewDestination(tx, transfer, method, now);
  if (insert) await tx.insert(payoutMethods).values(method);
  if (routedTry) await repairRoutedPayout(tx, { transfer, payoutMethodId: method.id }, now);
  else await repairPayout(tx, { transfer, payoutMethodId: method.id }, now);
  // A new destination: the name on its account is checked too (the detail shows the new answer).
  if (isRouted() && method.id !== transfer.payoutMethodId)
    await effectsOf(tx).jobs.schedule(
      "payouts.verifyPayee",
      { transferId: transfer.id },
      { runAt: now, dedupeKey: dedupeKey("payouts.verifyPayee", transfer.id, method.id) },
    );
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

/**
 * The operator's first step (console): the new destination the beneficiary gave, checked as above
 * and stored encrypted as a payout method of the beneficiary. The repair itself is the
 * dual-controlled `transfer.payout.repair` (lib/operations/dual-control): a second operator approves it.
 */
export async function stageOperatorRepair(tx: Tx, input: { transferId: string; payoutMethod: SubmitInput["payoutMethod"]; now: Date }) {
  const transfer = await lockTransfer(tx, input.transferId);
  if (!transfer) throw notFound("transfer");
  if (!(await rejectedRoutedAttempt(tx, transfer.id))) await lockRepairableAttempt(tx, transfer);
  const { method, insert } = await resolvePayoutMethod(tx, transfer, { payoutMethod: input.payoutMethod }, input.now);
  await checkNewDestination(tx, transfer, method, input.now);
  if (insert) await tx.insert(payoutMethods).values(method);
  return method;
}

/** The approved repair: the transfer is paid to the staged payout method (checked again, as the world may have moved). */
export async function repairPayoutByOperator(tx: Tx, input: { transferId: string; payoutMethodId: string; now: Date }) {
  const transfer = await lockTransfer(tx, input.transferId);
  if (!transfer) throw notFound("transfer");
  const [method] = await tx.select({ methodType: payoutMethods.methodType }).from(payoutMethods).where(eq(payoutMethods.id, input.payoutMethodId));
  if (!method) throw notFound("transfer");
  return repairWith(tx, transfer, { methodType: method.methodType, payoutMethodId: input.payoutMethodId }, input.now);
}
