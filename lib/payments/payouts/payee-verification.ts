/**
 * Payee verification (EU Verification of Payee, UK Confirmation of Payee): after submit, and again
 * whenever the transfer gets a new payout method (a repair), the name of the beneficiary is checked
 * against the destination account through the payout aggregator, before the customer confirms. The answer (MATCH, CLOSE_MATCH with the name the bank holds,
 * NO_MATCH, NOT_POSSIBLE) is kept on the transfer and shown in its detail (payeeVerification);
 * the customer may proceed, and a confirmation after NO_MATCH or CLOSE_MATCH is recorded
 * (lib/payments/transfers/confirm.ts). The call runs in a job, outside any transaction.
 */
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "@/db";
import { beneficiaries, payoutMethods, transfers } from "@/db/schema";
import { corridorOfTransfer } from "@/lib/payments/corridors/corridors";
import { refreshForTransfers } from "@/lib/payments/corridors/versions";
import { destinationCipher } from "@/lib/platform/crypto/destination-cipher";
import { defineJob } from "@/lib/platform/jobs/define";
import { inUnit } from "@/lib/platform/unit-of-work";
import { payoutAggregator, type PayeeVerificationAnswer, type PayeeVerificationRequest } from "@/lib/payments/providers/payout-aggregator";
import type { PayeeVerificationRecord } from "@/lib/payments/transfers/details";
import { lockTransfer } from "@/lib/payments/transfers/records";

/** Whether the kept answer is for the transfer's destination now (a record from before methods were named counts as such). */
const answersFor = (record: PayeeVerificationRecord | null, payoutMethodId: string | null) =>
  !!record && (record.payoutMethodId === undefined || record.payoutMethodId === payoutMethodId);

/**
 * What the aggregator is asked: the beneficiary's name and the destination, decrypted for the call
 * only, with the payout method it is for. Null: nothing to verify (no destination, or its answer is kept).
 * Asked whatever compliance holds on the transfer: skipping it would tell the partner something.
 */
export async function payeeVerificationRequest(tx: Tx, transferId: string): Promise<(PayeeVerificationRequest & { payoutMethodId: string }) | null> {
  const [row] = await tx
    .select({ transfer: transfers, beneficiary: beneficiaries, method: payoutMethods })
    .from(transfers)
    .innerJoin(beneficiaries, eq(beneficiaries.id, transfers.beneficiaryId))
    .innerJoin(payoutMethods, eq(payoutMethods.id, transfers.payoutMethodId))
    .where(eq(transfers.id, transferId));
  if (!row || answersFor(row.transfer.payeeVerification, row.method.id)) return null;
  // The corridor as the transfer's own configuration version defined it (its account format).
  await refreshForTransfers(tx, [row.transfer]);
  const corridor = corridorOfTransfer(row.transfer);
  const identifier = (await destinationCipher(tx)).decrypt(row.method.destinationIdentifierEncrypted, row.method.id).replace(/\s+/g, "");
  return {
    name: `${row.beneficiary.firstName} ${row.beneficiary.lastName}`.trim(),
    account: { scheme: row.method.methodType === "BANK_TRANSFER" ? (corridor?.bankAccount.format ?? "BBAN") : "MSISDN", id: identifier },
    country: corridor?.destinationCountry.alpha2 ?? "",
    payoutMethodId: row.method.id,
  };
}

/**
 * Keeps the answer on the transfer for the destination it was asked for: the first answer for a
 * destination stands (a retried job changes nothing), an answer for a new destination replaces
 * the old one's, and an answer for a destination the transfer no longer has is dropped.
 */
export async function recordPayeeVerification(
  tx: Tx,
  transferId: string,
  answer: Omit<PayeeVerificationAnswer, "raw">,
  provider: string,
  now: Date,
  payoutMethodId: string,
) {
  const transfer = await lockTransfer(tx, transferId);
  if (!transfer || transfer.payoutMethodId !== payoutMethodId || answersFor(transfer.payeeVerification, payoutMethodId))
    return transfer?.payeeVerification ?? null;
  const record: PayeeVerificationRecord = {
    result: answer.result,
    ...(answer.nameHeld ? { nameHeld: answer.nameHeld } : {}),
    checkedAt: now.toISOString(),
    provider,
    payoutMethodId,
  };
  await tx.update(transfers).set({ payeeVerification: record }).where(eq(transfers.id, transferId));
  return record;
}

/** payouts.verifyPayee: asked at submit of a routed payout, and when a repair gives it a new payout method. */
export const verifyPayeeJob = defineJob({
  kind: "payouts.verifyPayee",
  schema: z.object({ transferId: z.string() }),
  perform: async (db: Db, { payload, signal }) => {
    const asked = await inUnit(({ tx }) => payeeVerificationRequest(tx, payload.transferId), { db });
    if (!asked) return;
    const { payoutMethodId, ...request } = asked;
    const aggregator = payoutAggregator();
    let answer: Omit<PayeeVerificationAnswer, "raw">;
    try {
      answer = await aggregator.verifyPayee(request, signal);
    } catch {
      // No answer in time: the check was not possible; the customer decides without it.
      answer = { result: "NOT_POSSIBLE" };
    }
    await inUnit(
      ({ tx, now }) =>
        recordPayeeVerification(tx, payload.transferId, { result: answer.result, nameHeld: answer.nameHeld }, aggregator.name, now, payoutMethodId),
      { db },
    );
  },
});
