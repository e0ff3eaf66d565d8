import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "@/db";
import { preparedOn } from "@/db/prepared";
import { beneficiaries, customers, payoutMethods, screeningCases, transfers } from "@/db/schema";
import { beneficiaryMayMoveMoney } from "@/lib/beneficiaries/state-machine";
import { corridorByCode } from "@/lib/corridors/corridors";
import { customerMayMoveMoney } from "@/lib/customers/status-machine";
import { destinationCipher } from "@/lib/crypto/destination-cipher";
import { defineJob } from "@/lib/jobs/define";
import { checkIdentifierSubstance } from "@/lib/payout-identifiers/substantive-check";
import { alertOnOutcome } from "@/lib/monitoring/alerts";
import { monitorTransfer } from "@/lib/monitoring/evaluate";
import { flagCustomer } from "@/lib/screening-cases/flags";
import { expireIfOverdue } from "./deadline";
import { transitionTransfer, type TransferRow } from "./records";
import { raiseReviewAlert, reviewReasons } from "./review-rule";

/**
 * The fast-check (decisions section 7): the substantive checks submit did not do: the destination
 * identifier for real (IBAN mod-97, CLABE check digit, phone validity, wallet checksum), the
 * beneficiary's and the customer's current status, and whether either has an open screening case
 * (issue 19: a close match stops the money until a human clears it), and transaction monitoring
 * (issue 22: lib/monitoring). Pass → validated; review → onreview (TRF_CHECK_REVIEW, nothing more
 * said to the partner); fail or a monitoring block → rejected with the reason code (TRF_CHECK_FAILED).
 */
export const fastCheck = defineJob({
  kind: "transfers.fastCheck",
  schema: z.object({ transferId: z.string() }),
  run: async (tx, { payload, now }) => {
    const locked = await lockForCheck(tx, payload.transferId);
    if (!locked) return;
    const row = await expireIfOverdue(tx, locked, now);
    if (row.state !== "registered" || !row.payoutMethodId) return;
    const corridor = corridorByCode(row.corridor)!;
    // The three rows it checks, and the open-case tests, read in one round trip (one row each, by
    // primary key; the case lookup uses the one-open-case-per-subject index), in a statement after
    // the locks: its snapshot sees a case committed by a screening job the lock waited for.
    const [{ method, beneficiary, customer, beneficiaryCased, customerCased }] = await checkedRows(tx).execute({
      payoutMethodId: row.payoutMethodId,
      beneficiaryId: row.beneficiaryId,
      customerId: row.customerId,
    });
    const openScreeningCase = beneficiaryCased || customerCased;
    const identifier = (await destinationCipher(tx)).decrypt(method.destinationIdentifierEncrypted, method.id);

    const fail = (reason: string) => transitionTransfer(tx, row, "fastCheck.failed", now, { rejectionReason: reason });
    const substance = checkIdentifierSubstance({
      methodType: method.methodType,
      identifier,
      destinationCountry: corridor.destinationCountry.alpha2,
      bankAccountFormat: corridor.bankAccount.format,
    });
    if (!substance.ok) return void (await fail(substance.reasonCode));
    if (!beneficiaryMayMoveMoney(beneficiary.state)) return void (await fail("TRF_CHECK_BENEFICIARY_STATE"));
    if (!customerMayMoveMoney(customer.status)) return void (await fail("TRF_CHECK_CUSTOMER_STATUS"));
    if (beneficiaryCased) await flagCustomer(tx, { customerId: row.customerId, kind: "PAID_CASED_BENEFICIARY", beneficiaryId: row.beneficiaryId, now });
    if (customerCased) await flagCustomer(tx, { customerId: row.customerId, kind: "PAID_WHILE_CUSTOMER_CASED", beneficiaryId: row.beneficiaryId, now });
    // Transaction monitoring (issue 22): recorded in every mode; acts only in enforce. A block
    // outranks the decisions-7 review; those rules act in any mode.
    const monitoring = await monitorTransfer(
      tx,
      { ...row, corridor, customerStatus: customer.status, beneficiaryCreatedAt: beneficiary.createdAt, destinationKey: method.destinationKey },
      now,
    );
    await alertOnOutcome(tx, row, monitoring, now);
    const acted = monitoring.mode === "enforce" ? monitoring.outcome : "pass";
    if (acted === "block") return void (await fail("TRF_CHECK_FAILED"));
    const reasons = reviewReasons({ customerStatus: customer.status, corridor, originAmount: row.originAmount, openScreeningCase });
    await transitionTransfer(tx, row, acted === "review" || reasons.length > 0 ? "fastCheck.review" : "fastCheck.passed", now);
    if (reasons.length > 0) await raiseReviewAlert(tx, row, reasons, now);
  },
});

/**
 * The transfer locked FOR UPDATE (as lockTransfer does) and, in the same statement, its
 * beneficiary and customer FOR SHARE. The race the shared locks close: a screening job opening a
 * case locks the beneficiary (or customer) FOR UPDATE and holds the transfers already past the
 * fast-check. Without them, a fast-check running concurrently read "no open case" from its
 * snapshot while the case was being written, and passed the transfer to validated after the job
 * had collected the ones to hold: validated and unheld. FOR SHARE (fast-checks do not block one
 * another): the fast-check waits for the screening job to commit, and its next statement (a new
 * snapshot) sees the case; or the job waits for the fast-check and then holds the validated
 * transfer. The transfer is locked first (the CTE), then the others, the order of the two
 * statements this was (issue 26: one round trip less).
 */
async function lockForCheck(tx: Tx, transferId: string): Promise<TransferRow | undefined> {
  const [row] = await preparedOn(tx, "fast_check_locked", (e) => {
    const locked = e.$with("locked").as(
      e
        .select()
        .from(transfers)
        .where(eq(transfers.id, sql.placeholder("transferId")))
        .for("update"),
    );
    return e
      .with(locked)
      .select(locked._.selectedFields)
      .from(locked)
      .innerJoin(beneficiaries, eq(beneficiaries.id, locked.beneficiaryId))
      .innerJoin(customers, eq(customers.id, locked.customerId))
      .for("share", { of: [beneficiaries, customers] })
      .prepare("fast_check_locked");
  }).execute({ transferId });
  return row as TransferRow | undefined;
}

const caseOpen = (subjectType: "beneficiary" | "customer", subjectId: "beneficiaryId" | "customerId") =>
  sql<boolean>`exists (select 1 from ${screeningCases} where ${screeningCases.state} = 'OPEN' and ${screeningCases.subjectType} = ${subjectType} and ${screeningCases.subjectId} = ${sql.placeholder(subjectId)})`;

/** The payout method, the beneficiary's state and age, the customer's status and both open-case tests: one prepared statement. */
const checkedRows = (tx: Tx) =>
  preparedOn(tx, "fast_check_rows", (e) =>
    e
      .select({
        method: payoutMethods,
        beneficiary: { state: beneficiaries.state, createdAt: beneficiaries.createdAt },
        customer: { status: customers.status },
        beneficiaryCased: caseOpen("beneficiary", "beneficiaryId"),
        customerCased: caseOpen("customer", "customerId"),
      })
      .from(payoutMethods)
      .innerJoin(beneficiaries, eq(beneficiaries.id, sql.placeholder("beneficiaryId")))
      .innerJoin(customers, eq(customers.id, sql.placeholder("customerId")))
      .where(eq(payoutMethods.id, sql.placeholder("payoutMethodId")))
      .prepare("fast_check_rows"),
  );
