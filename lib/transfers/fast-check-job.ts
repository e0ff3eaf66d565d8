import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { beneficiaries, customers, payoutMethods, screeningCases } from "@/db/schema";
import { canMoveMoney } from "@/lib/beneficiaries/state-machine";
import { corridorByCode } from "@/lib/corridors/corridors";
import { destinationCipher } from "@/lib/crypto/destination-cipher";
import { defineJob } from "@/lib/jobs/define";
import { checkIdentifierSubstance } from "@/lib/payout-identifiers/substantive-check";
import { flagCustomer } from "@/lib/screening-cases/flags";
import { expireIfOverdue } from "./deadline";
import { lockTransfer, transitionTransfer } from "./records";
import { reviewReasons } from "./review-rule";

/**
 * The fast-check (decisions section 7): the substantive checks submit did not do: the destination
 * identifier for real (IBAN mod-97, CLABE check digit, phone validity, wallet checksum), the
 * beneficiary's and the customer's current status, and whether either has an open screening case
 * (issue 19: a close match stops the money until a human clears it). Pass → validated; review →
 * onreview (TRF_CHECK_REVIEW, nothing more said to the partner); fail → rejected with the reason code.
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
    // The three rows it checks, and the open-case test, read in one round trip (one row each, by
    // primary key; the case lookup uses the one-open-case-per-subject index).
    const [{ method, beneficiary, customer, openScreeningCase }] = await tx
      .select({
        method: payoutMethods,
        beneficiary: { state: beneficiaries.state },
        customer: { status: customers.status },
        openScreeningCase: sql<boolean>`exists (select 1 from ${screeningCases} where ${screeningCases.state} = 'OPEN' and ((${screeningCases.subjectType} = 'beneficiary' and ${screeningCases.subjectId} = ${row.beneficiaryId}) or (${screeningCases.subjectType} = 'customer' and ${screeningCases.subjectId} = ${row.customerId})))`,
      })
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
    if (openScreeningCase) {
      await flagCustomer(tx, { customerId: row.customerId, kind: "PAID_CASED_BENEFICIARY", beneficiaryId: row.beneficiaryId, now });
    }
    const review = reviewReasons({ customerStatus: customer.status, corridor, originAmount: row.originAmount, openScreeningCase }).length > 0;
    await transitionTransfer(tx, row, review ? "fastCheck.review" : "fastCheck.passed", now);
  },
});
