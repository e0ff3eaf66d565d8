import Link from "next/link";
import { Badge, Card, Flash, input, PageTitle, param, primary, type SearchParams } from "@/components/console/ui";
import { dailyReconciliation } from "@/lib/finance/books/bank-reconciliation";
import { clock } from "@/lib/platform/clock";
import { when } from "@/lib/operations/console/format";
import { requireOperator } from "@/lib/operations/console/session";
import { fromMinor } from "@/lib/finance/ledger";
import { ready } from "@/lib/platform/ready";
import { explainStatementDifference } from "../actions";

export const metadata = { title: "Bank reconciliation · Ledger · Console" };

const num = "p-1 text-right font-mono tabular-nums";

export default async function ReconciliationPage({ searchParams }: { searchParams: SearchParams }) {
  await requireOperator("admin");
  const sp = await searchParams;
  const lines = await dailyReconciliation(await ready(), clock.now());
  const open = lines.filter((l) => l.status === "DIFFERENCE");
  const back = "/console/ledger/reconciliation";
  return (
    <>
      <PageTitle sub="Each imported statement's closing booked balance against the ledger's cash account at that date (with the statement's own credits, posted at its import). A day with several statements is reconciled on its last (the bank's creation time); the earlier ones are listed as superseded.">
        Daily bank reconciliation
      </PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      <p className="mb-4 flex gap-4 text-sm">
        <Link className="text-blue-700 underline" href="/console/ledger">
          Back to the ledger
        </Link>
        <a className="text-blue-700 underline" href="/console/ledger/reconciliation/export" download>
          Daily report (CSV)
        </a>
      </p>
      <p className="mb-2 text-sm" data-testid="open-differences">
        {open.length} open difference{open.length === 1 ? "" : "s"}
      </p>
      <Card>
        <table className="w-full text-sm" data-testid="reconciliation">
          <thead>
            <tr className="text-left text-slate-500">
              <th className="p-1">Date</th>
              <th className="p-1">Account</th>
              <th className="p-1">Currency</th>
              <th className="p-1 text-right">Closing balance</th>
              <th className="p-1 text-right">Ledger</th>
              <th className="p-1 text-right">Difference</th>
              <th className="p-1">Status</th>
              <th className="p-1">Statement received</th>
              <th className="p-1 text-right">Age (days)</th>
              <th className="p-1">Explanation</th>
            </tr>
          </thead>
          <tbody>
            {lines.map((l) => (
              <tr key={l.id} className={l.status === "SUPERSEDED" ? "text-slate-500" : "border-t"} data-status={l.status} data-statement={l.statementId}>
                <td className="p-1 font-mono">{l.date}</td>
                <td className="p-1 font-mono">
                  {l.account} <Badge>{l.ledgerAccount}</Badge>
                </td>
                <td className="p-1 font-mono">{l.currency}</td>
                <td className={num}>{fromMinor(l.statementMinor, l.currency)}</td>
                <td className={num}>{fromMinor(l.ledgerMinor, l.currency)}</td>
                <td className={num}>{fromMinor(l.differenceMinor, l.currency)}</td>
                <td className="p-1">
                  <Badge>{l.status}</Badge>
                  {l.supersededBy ? <div className="text-xs">by {l.supersededBy}</div> : null}
                </td>
                <td className="p-1">
                  <span className="font-mono">{l.statementId}</span>
                  <div className="text-xs text-slate-500">
                    created {l.statementCreatedAt ? when(l.statementCreatedAt) : "(not given)"} · imported {when(l.importedAt)}
                  </div>
                </td>
                <td className={num}>{l.ageDays ?? ""}</td>
                <td className="p-1">
                  {l.status === "DIFFERENCE" ? (
                    <form action={explainStatementDifference} className="flex gap-1">
                      <input type="hidden" name="back" value={back} />
                      <input type="hidden" name="id" value={l.id} />
                      <input name="explanation" required minLength={3} className={input} placeholder="Explanation" aria-label={`Explanation for ${l.date}`} />
                      <button className={primary}>Explain</button>
                    </form>
                  ) : (
                    (l.explanation ?? "")
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {lines.length === 0 && <p className="text-sm text-slate-500">No statement imported yet.</p>}
      </Card>
    </>
  );
}
