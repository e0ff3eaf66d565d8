import Link from "next/link";
import { Card, PageTitle } from "@/components/console/ui";
import { clock } from "@/lib/platform/clock";
import { when } from "@/lib/operations/console/format";
import { overviewCounts } from "@/lib/operations/console/overview";
import { requireOperator } from "@/lib/operations/console/session";
import { ready } from "@/lib/platform/ready";

export const metadata = { title: "Overview · Console" };

interface Tile {
  href: string;
  label: string;
  n: number;
  /** The test id's suffix: count-<id>. */
  id: string;
  note?: string;
}

export default async function Overview() {
  const operator = await requireOperator();
  const counts = await overviewCounts(await ready(), operator.role === "admin");
  const now = clock.now();
  const daysLeft = (due: Date) => Math.ceil((due.getTime() - now.getTime()) / 86_400_000);
  // One tile per queue, each counted as its page lists it; the admin pages' tiles for admins only.
  // The test id names the tile (count-<id>), as the e2e tests read them.
  const tiles: Tile[] = [
    { href: "/console/approvals", label: "Proposals to approve", n: counts.approvals, id: "approvals" },
    {
      href: "/console/claims",
      label: "New claims",
      n: counts.newClaims.n,
      id: "new-claims",
      // Regulation E's 90-day clock: the earliest deadline among them.
      note: counts.newClaims.firstDue ? `first due ${when(counts.newClaims.firstDue)} (${daysLeft(counts.newClaims.firstDue)} days left)` : undefined,
    },
    { href: "/console/claims", label: "Claims overdue", n: counts.overdueClaims, id: "claims" },
    { href: "/console/cases", label: "Open cases", n: counts.openCases, id: "cases" },
    { href: "/console/cases?filter=overdue", label: "Overdue cases", n: counts.overdueCases, id: "cases-overdue" },
    { href: "/console/review", label: "Transfers in review", n: counts.review, id: "review" },
    { href: "/console/holds", label: "Compliance holds", n: counts.holds, id: "holds" },
    { href: "/console/beneficiaries", label: "Beneficiaries to decide", n: counts.screening, id: "beneficiaries" },
    { href: "/console/screening-cases", label: "Open screening cases", n: counts.screeningCases, id: "screening-cases" },
    { href: "/console/kyc-review", label: "KYC to review", n: counts.kycReview, id: "kyc-review" },
    { href: "/console/bank-credits", label: "Bank credits to match or return", n: counts.bankCredits, id: "bank-credits" },
    { href: "/console/bank-credits", label: "Returns requested, to execute at the bank", n: counts.returnsRequested, id: "returns-requested" },
    { href: "/console/transfers?state=funded", label: "Funded, awaiting a payout file", n: counts.fundedAwaitingFile, id: "funded-awaiting-file" },
    ...(counts.admin
      ? [
          { href: "/console/payout-files", label: "Rejected payouts awaiting repair", n: counts.admin.rejectedPayouts, id: "rejected-payouts" },
          {
            href: "/console/ledger/reconciliation",
            label: "Reconciliation differences",
            n: counts.admin.reconciliationDifferences,
            id: "reconciliation-differences",
          },
          { href: "/console/refunds", label: "Refunds due", n: counts.admin.refunds, id: "refunds" },
          { href: "/console/payout-files", label: "Payout files waiting for the bank", n: counts.admin.payoutFiles, id: "payout-files" },
          { href: "/console/deliveries", label: "Failed deliveries", n: counts.admin.deliveries, id: "deliveries" },
        ]
      : []),
  ];
  return (
    <>
      <PageTitle sub="What needs an operator now.">Overview</PageTitle>
      <div className="grid gap-4 sm:grid-cols-3">
        {tiles.map((t) => (
          <Link key={t.id} href={t.href} className="rounded-lg focus:outline-none focus:ring-2 focus:ring-blue-500">
            <Card>
              <p className="text-sm text-slate-600">{t.label}</p>
              <p className="mt-1 text-3xl font-semibold" data-testid={`count-${t.id}`}>
                {t.n}
              </p>
              {t.note ? (
                <p className="mt-1 text-xs text-slate-600" data-testid={`note-${t.id}`}>
                  {t.note}
                </p>
              ) : null}
            </Card>
          </Link>
        ))}
      </div>
      <h2 className="mb-2 mt-6 text-lg font-semibold">Operations incidents ({counts.incidents.filter((i) => !i.resolvedAt).length} open)</h2>
      {counts.incidents.length === 0 ? (
        <p className="text-sm text-slate-600">No alert in the last week.</p>
      ) : (
        <ul className="text-sm" data-testid="incidents">
          {counts.incidents.map((i) => (
            <li key={i.id} data-testid={`incident-${i.condition}`}>
              <span className={i.resolvedAt ? "text-slate-600" : "font-semibold text-red-700"}>{i.resolvedAt ? "Resolved" : "Open"}</span> ·{" "}
              <span className="font-mono">{i.condition}</span>
              {i.subject ? ` (${i.subject})` : ""} · {i.summary} · opened {when(i.openedAt)}
              {i.resolvedAt ? `, resolved ${when(i.resolvedAt)}` : ""}
            </li>
          ))}
        </ul>
      )}
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
