/**
 * Payee verification (EU Verification of Payee, UK Confirmation of Payee): after submit, the name
 * of the beneficiary is checked against the destination account through the payout aggregator,
 * before the customer confirms. The answer (MATCH, CLOSE_MATCH with the name the bank holds,
 * NO_MATCH, NOT_POSSIBLE) is kept on the transfer and shown in its detail (payeeVerification);
 * the customer may proceed, and a confirmation after NO_MATCH or CLOSE_MATCH is recorded
 * (lib/payments/transfers/confirm.ts). The call runs in a job, outside any transaction.
 */
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "@/db";
import { beneficiaries, payoutMethods, transfers } from "@/db/schema";
import { corridorByCode } from "@/lib/payments/corridors/corridors";
import { destinationCipher } from "@/lib/platform/crypto/destination-cipher";
import { defineJob } from "@/lib/platform/jobs/define";
import { inUnit } from "@/lib/platform/unit-of-work";
import { payoutAggregator, type PayeeVerificationAnswer, type PayeeVerificationRequest } from "@/lib/payments/providers/payout-aggregator";
import type { PayeeVerificationRecord } from "@/lib/payments/transfers/details";
import { lockTransfer } from "@/lib/payments/transfers/records";

/** What the aggregator is asked: the beneficiary's name and the destination, decrypted for the call only. Null: nothing to verify. */
export async function payeeVerificationRequest(tx: Tx, transferId: string): Promise<PayeeVerificationRequest | null> {
  const [row] = await tx
    .select({ transfer: transfers, beneficiary: beneficiaries, method: payoutMethods })
    .from(transfers)
    .innerJoin(beneficiaries, eq(beneficiaries.id, transfers.beneficiaryId))
    .innerJoin(payoutMethods, eq(payoutMethods.id, transfers.payoutMethodId))
    .where(eq(transfers.id, transferId));
  if (!row || row.transfer.payeeVerification) return null;
  const corridor = corridorByCode(row.transfer.corridor);
  const identifier = (await destinationCipher(tx)).decrypt(row.method.destinationIdentifierEncrypted, row.method.id).replace(/\s+/g, "");
  return {
    name: `${row.beneficiary.firstName} ${row.beneficiary.lastName}`.trim(),
    account: { scheme: row.method.methodType === "BANK_TRANSFER" ? (corridor?.bankAccount.format ?? "BBAN") : "MSISDN", id: identifier },
    country: corridor?.destinationCountry.alpha2 ?? "",
  };
}

/** Keeps the answer on the transfer (the first answer stands: a retried job changes nothing). */
export async function recordPayeeVerification(tx: Tx, transferId: string, answer: Omit<PayeeVerificationAnswer, "raw">, provider: string, now: Date) {
  const transfer = await lockTransfer(tx, transferId);
  if (!transfer || transfer.payeeVerification) return transfer?.payeeVerification ?? null;
  const record: PayeeVerificationRecord = {
    result: answer.result,
    ...(answer.nameHeld ? { nameHeld: answer.nameHeld } : {}),
    checkedAt: now.toISOString(),
    provider,
  };
  await tx.update(transfers).set({ payeeVerification: record }).where(eq(transfers.id, transferId));
  return record;
}

/** payouts.verifyPayee: asked at submit of a routed payout. */
export const verifyPayeeJob = defineJob({
  kind: "payouts.verifyPayee",
  schema: z.object({ transferId: z.string() }),
  perform: async (db: Db, { payload, signal }) => {
    const request = await inUnit(({ tx }) => payeeVerificationRequest(tx, payload.transferId), { db });
    if (!request) return;
    const aggregator = payoutAggregator();
    let answer: Omit<PayeeVerificationAnswer, "raw">;
    try {
      answer = await aggregator.verifyPayee(request, signal);
    } catch {
      // No answer in time: the check was not possible; the customer decides without it.
      answer = { result: "NOT_POSSIBLE" };
    }
    await inUnit(({ tx, now }) => recordPayeeVerification(tx, payload.transferId, { result: answer.result, nameHeld: answer.nameHeld }, aggregator.name, now), {
      db,
    });
  },
});
