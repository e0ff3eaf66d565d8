import { and, count, eq, inArray, min, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { bankCredits, claims, payoutFileItems, transfers } from "@/db/schema";
import { dailyReconciliation } from "@/lib/finance";
import { caseCounts, overdueReports, openCaseCount } from "@/lib/compliance";
import { payoutFilesWaitingCount, bankCreditQueueCount, overdueClaimCount } from "@/lib/payments";
import { clock } from "@/lib/platform/clock";
import { queuedProposalCount } from "@/lib/operations/dual-control/queries";
import { countKycReview } from "@/lib/identity";
import { failedOtpDeliveryCount } from "@/lib/operations/notifications/failed-deliveries";
import { recentIncidents } from "@/lib/operations/observability/alerts";
import { refundsDueCount } from "./money";
import { queueCounts } from "./queries";

/** New claims (OPEN, not yet investigated) and the earliest of their 90-day deadlines. */
async function newClaims(db: Executor) {
  const [row] = await db
    .select({ n: count(), firstDue: min(claims.dueBy) })
    .from(claims)
    .where(eq(claims.state, "OPEN"));
  return { n: Number(row?.n ?? 0), firstDue: row?.firstDue ?? null };
}

/** Funded transfers in no payout file yet (the next file run takes them). */
async function fundedAwaitingFileCount(db: Executor): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(transfers)
    .where(and(eq(transfers.state, "funded"), sql`not exists (select 1 from ${payoutFileItems} where ${payoutFileItems.transferId} = ${transfers.id})`));
  return Number(row?.n ?? 0);
}

/** Payouts the bank rejected, waiting for a new destination or a refund (their latest attempt REJECTED). */
async function rejectedAwaitingRepairCount(db: Executor): Promise<number> {
  return db.$count(payoutFileItems, eq(payoutFileItems.state, "REJECTED"));
}

/** Bank credits whose return the bank has still to execute. */
async function returnsRequestedCount(db: Executor): Promise<number> {
  return db.$count(bankCredits, inArray(bankCredits.state, ["RETURN_REQUESTED"]));
}

/** Closing balances differing from the ledger and not explained (the reconciliation page's DIFFERENCE lines). */
async function reconciliationDifferenceCount(db: Executor, now: Date): Promise<number> {
  return (await dailyReconciliation(db, now)).filter((l) => l.status === "DIFFERENCE").length;
}

/**
 * The Overview's counts: every queue an operator works, each counted with the filter of the page
 * it links to (new claims, funded transfers awaiting a
 * payout file, rejected payouts awaiting repair, reconciliation differences and returns requested).
 * The admin-only pages' counts are read for admins only.
 */
export async function overviewCounts(db: Executor, admin: boolean) {
  const now = clock.now();
  const [
    queues,
    kycReview,
    bankCreditsWaiting,
    screeningCases,
    approvals,
    cases,
    reportsOverdue,
    overdueClaims,
    claimsNew,
    fundedAwaitingFile,
    returnsRequested,
    incidents,
  ] = await Promise.all([
    queueCounts(db),
    countKycReview(db),
    bankCreditQueueCount(db),
    openCaseCount(db),
    queuedProposalCount(db, now),
    caseCounts(db, now),
    overdueReports(db, now.toISOString().slice(0, 10)),
    overdueClaimCount(db, now),
    newClaims(db),
    fundedAwaitingFileCount(db),
    returnsRequestedCount(db),
    recentIncidents(db, now),
  ]);
  const adminCounts = admin
    ? await Promise.all([
        refundsDueCount(db),
        payoutFilesWaitingCount(db),
        failedOtpDeliveryCount(db),
        rejectedAwaitingRepairCount(db),
        reconciliationDifferenceCount(db, now),
      ]).then(([refunds, payoutFiles, deliveries, rejectedPayouts, reconciliationDifferences]) => ({
        refunds,
        payoutFiles,
        deliveries,
        rejectedPayouts,
        reconciliationDifferences,
      }))
    : null;
  return {
    ...queues,
    kycReview,
    bankCredits: bankCreditsWaiting,
    screeningCases,
    approvals,
    ...cases,
    reportsOverdue,
    overdueClaims,
    newClaims: claimsNew,
    fundedAwaitingFile,
    returnsRequested,
    /** Operations alerts' incidents (lib/operations/observability/alerts.ts): the open ones and the last week's resolved ones. */
    incidents,
    admin: adminCounts,
  };
}
