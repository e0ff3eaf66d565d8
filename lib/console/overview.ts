import type { Executor } from "@/db";
import { caseCounts } from "@/lib/cases/queries";
import { overdueReports } from "@/lib/cases/reports";
import { overdueClaimCount } from "@/lib/claims/claims";
import { clock } from "@/lib/clock";
import { queuedProposalCount } from "@/lib/dual-control/queries";
import { countKycReview } from "@/lib/kyc/review";
import { failedOtpDeliveryCount } from "@/lib/notifications/failed-deliveries";
import { payoutFilesWaitingCount } from "@/lib/payouts/console";
import { bankCreditQueueCount } from "@/lib/reconciliation/queue";
import { openCaseCount } from "@/lib/screening-cases/queries";
import { refundsDueCount } from "./money";
import { queueCounts } from "./queries";

/**
 * The Overview's counts: every queue an operator works, each counted with the filter of the page
 * it links to (issue 20 item 11). The admin-only pages' counts are read for admins only.
 */
export async function overviewCounts(db: Executor, admin: boolean) {
  const now = clock.now();
  const [queues, kycReview, bankCredits, screeningCases, approvals, cases, reportsOverdue, overdueClaims] = await Promise.all([
    queueCounts(db),
    countKycReview(db),
    bankCreditQueueCount(db),
    openCaseCount(db),
    queuedProposalCount(db, now),
    caseCounts(db, now),
    overdueReports(db, now.toISOString().slice(0, 10)),
    overdueClaimCount(db, now),
  ]);
  const adminCounts = admin
    ? await Promise.all([refundsDueCount(db), payoutFilesWaitingCount(db), failedOtpDeliveryCount(db)]).then(([refunds, payoutFiles, deliveries]) => ({
        refunds,
        payoutFiles,
        deliveries,
      }))
    : null;
  return { ...queues, kycReview, bankCredits, screeningCases, approvals, ...cases, reportsOverdue, overdueClaims, admin: adminCounts };
}
