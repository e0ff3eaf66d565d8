import { notFound } from "next/navigation";
import { Badge, Card, PageTitle } from "@/components/console/ui";
import { when } from "@/lib/console/format";
import { transferWithHistory } from "@/lib/console/money";
import { requireOperator } from "@/lib/console/session";
import { fromMinor, transferEntries } from "@/lib/ledger";
import { ready } from "@/lib/platform/ready";

export const metadata = { title: "Transfer · Console" };

const num = "p-1 text-right font-mono tabular-nums";

export default async function TransferPage({ params }: { params: Promise<{ transferId: string }> }) {
  await requireOperator();
  const { transferId } = await params;
  const db = await ready();
  const found = await transferWithHistory(db, transferId);
  if (!found) notFound();
  const { t, history } = found;
  const entries = await transferEntries(db, t.id);
  return (
    <>
      <PageTitle
        sub={
          <>
            {t.originAmount} {t.originCurrency} → {t.destinationAmount} {t.destinationCurrency} · fees {t.principalFee} + {t.partnerFee} · total{" "}
            {t.totalCustomerCost} · {t.corridor} · customer {t.subscriptionId}
          </>
        }
      >
        {t.id}
      </PageTitle>
      <Card title="Status">
        <p className="text-sm">
          State <Badge>{t.state}</Badge>
          {t.priorState ? <> · before hold {t.priorState}</> : null}
          {t.fundedFrom ? <> · funded from {t.fundedFrom}</> : null}
          {t.refund ? (
            <>
              {" "}
              · refund <Badge>{t.refund.refundStatus}</Badge>
              {t.refund.bankReference ? <> (bank reference {t.refund.bankReference})</> : null}
            </>
          ) : null}
        </p>
      </Card>
      <Card title={`State history (${history.length})`}>
        <ol className="list-decimal pl-6 text-sm" data-testid="state-history">
          {history.map((h) => (
            <li key={h.id}>
              {h.state} · {h.reasonCode} · {when(h.transitionedAt)}
            </li>
          ))}
        </ol>
      </Card>
      <Card title={`Journal entries (${entries.length})`}>
        {entries.length === 0 && <p className="text-sm text-slate-500">Nothing posted for this transfer.</p>}
        {entries.map((e) => (
          <section key={e.entryId} className="mb-3 border-t pt-2" data-testid="journal-entry">
            <p className="text-sm">
              <Badge>{e.kind}</Badge> {e.memo} · {when(e.createdAt)} · <span className="font-mono text-xs">{e.entryId}</span>
            </p>
            <table className="mt-1 w-full text-sm">
              <thead>
                <tr className="text-left text-slate-500">
                  <th className="p-1">Account</th>
                  <th className="p-1">Currency</th>
                  <th className="p-1 text-right">Debit</th>
                  <th className="p-1 text-right">Credit</th>
                </tr>
              </thead>
              <tbody>
                {e.lines.map((l, i) => (
                  <tr key={i}>
                    <td className="p-1">{l.account}</td>
                    <td className="p-1 font-mono">{l.currency}</td>
                    <td className={num}>{l.debit ? fromMinor(l.debit, l.currency) : ""}</td>
                    <td className={num}>{l.credit ? fromMinor(l.credit, l.currency) : ""}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ))}
      </Card>
    </>
  );
}
