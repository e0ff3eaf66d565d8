import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "@/db";
import { preparedOn } from "@/db/prepared";
import { beneficiaries, customerRiskRatings, customers, payoutMethods, screeningCases, transfers } from "@/db/schema";
import {
  flagCustomer,
  beneficiaryMayMoveMoney,
  corridorOfTransfer,
  refreshVersions,
  checkIdentifierSubstance,
  expireIfOverdue,
  transitionTransfer,
  type TransferRow,
} from "@/lib/payments";
import { pepApprovalPendingSql } from "../cases/pep";
import { alertOnOutcome } from "../monitoring/alerts";
import { evaluateTransfer, recordEvaluations } from "../monitoring/evaluate";
import { RATINGS, type Rating } from "../risk-rating/model";
import { customerMayMoveMoney } from "@/lib/identity";
import { destinationCipher } from "@/lib/platform/crypto/destination-cipher";
import { defineJob } from "@/lib/platform/jobs/define";
import { raiseReviewAlert, reviewReasons } from "./review-rule";

/**
 * The fast-check (decisions section 7): the substantive checks submit did not do: the destination
 * identifier for real (IBAN mod-97, CLABE check digit, phone validity, wallet checksum), the
 * beneficiary's and the customer's current status, and whether either has an open screening case
 * (a close match stops the money until a human clears it), whether the customer is a PEP not yet
 * approved (lib/compliance/cases/pep.ts), and transaction monitoring (lib/compliance/monitoring). Pass → validated; review → onreview (TRF_CHECK_REVIEW, nothing more
 * said to the partner); fail or a monitoring block → rejected with the reason code (TRF_CHECK_FAILED).
 */
export const fastCheck = defineJob({
  kind: "transfers.fastCheck",
  schema: z.object({ transferId: z.string() }),
  run: async (tx, { payload, now }) => {
    const locked = await lockForCheck(tx, payload.transferId);
    if (!locked) return;
    const row = await expireIfOverdue(tx, locked.transfer, now);
    if (row.state !== "registered" || !row.payoutMethodId || !locked.method) return;
    const { method, beneficiary, customer } = locked;
    // The corridor as the version its quote was priced under defined it (loaded if this process lacks it).
    if (row.configurationVersion !== null) await refreshVersions(tx, row.configurationVersion);
    const corridor = corridorOfTransfer(row)!;
    // Transaction monitoring's read, with the open-case tests beside it: a statement
    // after the locks, whose snapshot sees a case committed by a screening job the lock waited for
    // (the case lookups use the one-open-case-per-subject index). Recorded below only if the
    // transfer reaches monitoring, as before.
    const evaluated = await evaluateTransfer(
      tx,
      { ...row, corridor, customerStatus: customer.status, beneficiaryCreatedAt: beneficiary.createdAt, destinationKey: method.destinationKey },
      now,
      {
        columns: {
          beneficiary_cased: caseOpen("beneficiary", "casedBeneficiaryId"),
          customer_cased: caseOpen("customer", "casedCustomerId"),
          customer_pep_pending: pepApprovalPendingSql("casedCustomerId"),
          customer_rating: ratingOf("casedCustomerId"),
        },
        values: { casedBeneficiaryId: row.beneficiaryId, casedCustomerId: row.customerId },
      },
    );
    const beneficiaryCased = Number(evaluated.also.beneficiary_cased) === 1;
    const customerCased = Number(evaluated.also.customer_cased) === 1;
    const openScreeningCase = beneficiaryCased || customerCased;
    // A PEP whose ENHANCED KYC and admin approval are not yet done: the transfer waits in review.
    const pepApprovalPending = Number(evaluated.also.customer_pep_pending) === 1;
    const rating = parseRating(evaluated.also.customer_rating);
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
    // Transaction monitoring: recorded in every mode; acts only in enforce. A block
    // outranks the decisions-7 review; those rules act in any mode.
    await recordEvaluations(tx, evaluated.rows);
    const { monitoring } = evaluated;
    await alertOnOutcome(tx, row, monitoring, now);
    const acted = monitoring.mode === "enforce" ? monitoring.outcome : "pass";
    if (acted === "block") return void (await fail("TRF_CHECK_FAILED"));
    const reasons = reviewReasons({
      customerStatus: customer.status,
      corridor,
      originAmount: row.originAmount,
      openScreeningCase,
      pepApprovalPending,
      rating,
    });
    await transitionTransfer(tx, row, acted === "review" || reasons.length > 0 ? "fastCheck.review" : "fastCheck.passed", now);
    if (reasons.length > 0) await raiseReviewAlert(tx, row, reasons, now);
  },
});

/**
 * The transfer locked FOR UPDATE (as lockTransfer does) and, in the same statement, its
 * beneficiary and customer FOR SHARE, read with its payout method (never changed once stored).
 * The race the shared locks close: a screening job opening a case locks the beneficiary (or
 * customer) FOR UPDATE and holds the transfers already past the fast-check. Without them, a
 * fast-check running concurrently read "no open case" from its snapshot while the case was being
 * written, and passed the transfer to validated after the job had collected the ones to hold:
 * validated and unheld. FOR SHARE (fast-checks do not block one another): the fast-check waits
 * for the screening job to commit, and its next statement (a new snapshot) sees the case; or the
 * job waits for the fast-check and then holds the validated transfer. A locked row is answered as
 * it is once locked (one changed while the lock waited is read again), so the beneficiary's state
 * and the customer's status are current. The transfer is locked first (the CTE), then the others,
 * the order of the two statements this was.
 */
async function lockForCheck(tx: Tx, transferId: string) {
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
      .select({
        transfer: locked._.selectedFields,
        method: payoutMethods,
        beneficiary: { state: beneficiaries.state, createdAt: beneficiaries.createdAt },
        customer: { status: customers.status },
      })
      .from(locked)
      .innerJoin(beneficiaries, eq(beneficiaries.id, locked.beneficiaryId))
      .innerJoin(customers, eq(customers.id, locked.customerId))
      .leftJoin(payoutMethods, eq(payoutMethods.id, locked.payoutMethodId))
      .for("share", { of: [beneficiaries, customers] })
      .prepare("fast_check_locked");
  }).execute({ transferId });
  return row && { ...row, transfer: row.transfer as TransferRow };
}

/**
 * The customer's stored risk rating (lib/compliance/risk-rating), null before its first: read beside the
 * aggregates, never computed here (the rating job keeps it current).
 */
const ratingOf = (customerId: "casedCustomerId") =>
  sql`(select ${customerRiskRatings.rating} from ${customerRiskRatings} where ${customerRiskRatings.customerId} = ${sql.placeholder(customerId)})`;

const parseRating = (v: unknown): Rating | null => ((RATINGS as readonly unknown[]).includes(v) ? (v as Rating) : null);

/** Whether the subject has an open screening case, as 1 or 0 (read beside monitoring's aggregates, whose driver values are raw). */
const caseOpen = (subjectType: "beneficiary" | "customer", subjectId: "casedBeneficiaryId" | "casedCustomerId") =>
  sql`(exists (select 1 from ${screeningCases} where ${screeningCases.state} = 'OPEN' and ${screeningCases.subjectType} = ${subjectType} and ${screeningCases.subjectId} = ${sql.placeholder(subjectId)}))::int`;
