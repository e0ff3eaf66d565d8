import Link from "next/link";
import { Card, PageTitle } from "@/components/console/ui";
import { overviewCounts } from "@/lib/console/overview";
import { requireOperator } from "@/lib/console/session";
import { ready } from "@/lib/platform/ready";

export const metadata = { title: "Overview · Console" };

export default async function Overview() {
  const operator = await requireOperator();
  const counts = await overviewCounts(await ready(), operator.role === "admin");
  // One tile per queue, each counted as its page lists it; the admin pages' tiles for admins only.
  const tiles: [href: string, label: string, n: number][] = [
    ["/console/approvals", "Proposals to approve", counts.approvals],
    ["/console/cases", "Open cases", counts.openCases],
    ["/console/cases?filter=overdue", "Overdue cases", counts.overdueCases],
    ["/console/review", "Transfers in review", counts.review],
    ["/console/holds", "Compliance holds", counts.holds],
    ["/console/beneficiaries", "Beneficiaries to decide", counts.screening],
    ["/console/screening-cases", "Open screening cases", counts.screeningCases],
    ["/console/kyc-review", "KYC to review", counts.kycReview],
    ["/console/bank-credits", "Bank credits to match or return", counts.bankCredits],
    ["/console/claims", "Claims overdue", counts.overdueClaims],
    ...(counts.admin
      ? ([
          ["/console/refunds", "Refunds due", counts.admin.refunds],
          ["/console/payout-files", "Payout files waiting for the bank", counts.admin.payoutFiles],
          ["/console/deliveries", "Failed deliveries", counts.admin.deliveries],
        ] as [string, string, number][])
      : []),
  ];
  return (
    <>
      <PageTitle sub="What needs an operator now.">Overview</PageTitle>
      <div className="grid gap-4 sm:grid-cols-3">
        {tiles.map(([href, label, n]) => (
          <Link key={href} href={href} className="rounded-lg focus:outline-none focus:ring-2 focus:ring-blue-500">
            <Card>
              <p className="text-sm text-slate-600">{label}</p>
              <p className="mt-1 text-3xl font-semibold" data-testid={`count-${href.split("/").pop()!.replace("?filter=", "-")}`}>
                {n}
              </p>
            </Card>
          </Link>
        ))}
      </div>
      <h2 className="mb-2 mt-6 text-lg font-semibold">Suspicious-activity reports overdue ({counts.overdueReports})</h2>
      {counts.reportsOverdue.length === 0 ? (
        <p className="text-sm text-slate-600">No report is past its due date.</p>
      ) : (
        <ul className="text-sm" data-testid="overdue-reports">
          {counts.reportsOverdue.map((r) => (
            <li key={r.id}>
              <Link className="font-mono text-blue-700 underline" href={`/console/cases/${r.caseId}`}>
                {r.id}
              </Link>{" "}
              due {r.dueOn} · {[r.subject.firstName, r.subject.lastName].filter(Boolean).join(" ") || r.customerId}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
