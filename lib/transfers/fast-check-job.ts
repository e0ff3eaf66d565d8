import { eq } from "drizzle-orm";
import { z } from "zod";
import { beneficiaries, customers, payoutMethods } from "@/db/schema";
import { canMoveMoney } from "@/lib/beneficiaries/state-machine";
import { corridorByCode } from "@/lib/corridors/corridors";
import { destinationCipher } from "@/lib/crypto/destination-cipher";
import { defineJob } from "@/lib/jobs/define";
import { checkIdentifierSubstance } from "@/lib/payout-identifiers/substantive-check";
import { expireIfOverdue } from "./deadline";
import { lockTransfer, transitionTransfer } from "./records";
import { reviewReasons } from "./review-rule";

/**
 * The fast-check (decisions section 7): the substantive checks submit did not do: the destination
 * identifier for real (IBAN mod-97, CLABE check digit, phone validity, wallet checksum), the
 * beneficiary's and the customer's current status. Pass → validated; review → onreview; fail →
 * rejected with the reason code.
 */
export const fastCheck = defineJob({
  kind: "transfers.fastCheck",
  schema: z.object({ transferId: z.string() }),
  run: async (tx, { payload, now }) => {
    const locked = await lockTransfer(tx, payload.transferId);
    if (!locked) return;
    const row = await expireIfOverdue(tx, locked, now);
    if (row.state !== "registered" || !row.payoutMethodId) return;
    const corridor = corridorByCode(row.corridor)!;
    // The three rows it checks, read in one round trip (one row each, by primary key).
    const [{ method, beneficiary, customer }] = await tx
      .select({ method: payoutMethods, beneficiary: { state: beneficiaries.state }, customer: { status: customers.status } })
      .from(payoutMethods)
      .innerJoin(beneficiaries, eq(beneficiaries.id, row.beneficiaryId))
      .innerJoin(customers, eq(customers.id, row.customerId))
      .where(eq(payoutMethods.id, row.payoutMethodId));
    const identifier = (await destinationCipher(tx)).decrypt(method.destinationIdentifierEncrypted, method.id);

    const fail = (reason: string) => transitionTransfer(tx, row, "fastCheck.failed", now, { rejectionReason: reason });
    const substance = checkIdentifierSubstance({
      methodType: method.methodType,
      identifier,
      destinationCountry: corridor.destinationCountry.alpha2,
      bankAccountFormat: corridor.bankAccount.format,
    });
    if (!substance.ok) return void (await fail(substance.reasonCode));
    if (!canMoveMoney(beneficiary.state)) return void (await fail("TRF_CHECK_BENEFICIARY_STATE"));
    if (!["VALID", "MONITORED"].includes(customer.status)) return void (await fail("TRF_CHECK_CUSTOMER_STATUS"));
    const review = reviewReasons({ customerStatus: customer.status, corridor, originAmount: row.originAmount }).length > 0;
    await transitionTransfer(tx, row, review ? "fastCheck.review" : "fastCheck.passed", now);
  },
});
