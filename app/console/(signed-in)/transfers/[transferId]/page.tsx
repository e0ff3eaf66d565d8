import Link from "next/link";
import { notFound } from "next/navigation";
import { ScreeningEvidence } from "@/components/console/screening-evidence";
import { Badge, Card, CustomerLabel, PageTitle, PartnerLabel } from "@/components/console/ui";
import { amount, customerName, money, when } from "@/lib/operations/console/format";
import { requireOperator } from "@/lib/operations/console/session";
import { transferParties } from "@/lib/operations/console/transfer-search";
import { transferView } from "@/lib/operations/console/transfer-view";
import { fromMinor, transferEntries } from "@/lib/finance/ledger";
import { Decimal } from "@/lib/platform/money/decimal";
import { evaluationsOf } from "@/lib/compliance/monitoring/queries";
import { payoutAttemptsOf, payoutRejectionOf, providerAttemptsOf } from "@/lib/payments/payouts/console";
import { ready } from "@/lib/platform/ready";

export const metadata = { title: "Transfer · Console" };

const num = "p-1 text-right font-mono tabular-nums";

export default async function TransferPage({ params }: { params: Promise<{ transferId: string }> }) {
  await requireOperator();
  const { transferId } = await params;
  const db = await ready();
  const found = await transferView(db, transferId);
  if (!found) notFound();
  const { t, refund, history, beneficiary: b, method, screening, credits, actions, hold, pricedUnder } = found;
  const [entries, rejection, evaluations, attempts, parties, tries] = await Promise.all([
    transferEntries(db, t.id),
    payoutRejectionOf(db, t.id),
    evaluationsOf(db, t.id),
    payoutAttemptsOf(db, t.id),
    transferParties(db, t.id),
    providerAttemptsOf(db, t.id),
  ]);
  return (
    <>
      <PageTitle
        sub={
          <>
            {money(t.originAmount, t.originCurrency)} → {money(t.destinationAmount, t.destinationCurrency)} · fees{" "}
            {money(new Decimal(t.principalFee).plus(t.partnerFee).toFixed(), t.originCurrency)} · total {money(t.totalCustomerCost, t.originCurrency)} ·{" "}
            {t.corridor} ·{" "}
            <span data-testid="priced-under">
              priced under{" "}
              {pricedUnder && /^\d+$/.test(pricedUnder) ? (
                <Link className="text-blue-700 underline" href="/console/configuration">
                  configuration version {pricedUnder}
                </Link>
              ) : (
                `corridor data ${pricedUnder ?? "unknown"}`
              )}
            </span>{" "}
            · customer <CustomerLabel name={customerName(parties?.customerProfile)} id={t.subscriptionId} href={`/console/customers/${t.subscriptionId}`} /> ·
            partner <PartnerLabel name={parties?.partnerName} id={t.partnerId} />
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
          {rejection ? (
            <span data-testid="payout-rejection">
              {" "}
              · payout rejected by the bank: {rejection.description} ({rejection.isoReasonCode ?? "no reason code"})
            </span>
          ) : null}
          {refund ? (
            <>
              {" "}
              · refund <Badge>{refund.state}</Badge>
              {refund.bankReference ? <> (bank reference {refund.bankReference})</> : null}
            </>
          ) : null}
        </p>
      </Card>
      {hold && (
        <Card title="Compliance hold">
          <p className="text-sm" data-testid="hold-info">
            Held {hold.by ? <>by {hold.by}</> : <>by a compliance event outside the console</>} on {when(hold.at)}
            {hold.reason ? <>: {hold.reason}</> : null}
          </p>
        </Card>
      )}
      <Card title="Beneficiary">
        {b ? (
          <div className="text-sm" data-testid="beneficiary">
            <p>
              {b.firstName} {b.lastName} <Badge>{b.state}</Badge> · {b.countryOfResidence} · {b.relationshipToCustomer} ·{" "}
              <span className="font-mono text-xs">{b.id}</span>
            </p>
            <p className="mt-1">
              Payout {t.payoutMethod}
              {method ? (
                <>
                  {" "}
                  to {method.methodType} {method.masked}
                </>
              ) : null}
            </p>
            <div className="mt-2">
              <ScreeningEvidence screening={screening} />
            </div>
          </div>
        ) : (
          <p className="text-sm text-slate-500">Beneficiary {t.beneficiaryId} not found.</p>
        )}
      </Card>
      <Card title={`Bank credits (${credits.length})`}>
        {credits.length === 0 ? (
          <p className="text-sm text-slate-500">No bank transfer credit for this transfer{t.fundedFrom ? ` (funded from ${t.fundedFrom})` : ""}.</p>
        ) : (
          <table className="w-full text-sm" data-testid="funding-credits">
            <thead>
              <tr className="text-left text-slate-500">
                <th className="p-1">Bank reference</th>
                <th className="p-1">Payer</th>
                <th className="p-1 text-right">Amount</th>
                <th className="p-1">Booked</th>
                <th className="p-1">State</th>
              </tr>
            </thead>
            <tbody>
              {credits.map((c) => (
                <tr key={c.id} className="border-t">
                  <td className="p-1 font-mono">{c.bankReference}</td>
                  <td className="p-1">
                    {c.payerName ?? "—"} <span className="font-mono text-xs">{c.payerAccount ?? ""}</span>
                  </td>
                  <td className={num}>{money(c.amount, c.currency)}</td>
                  <td className="p-1">{c.bookingDate ?? ""}</td>
                  <td className="p-1">
                    <Badge>{c.state}</Badge> {c.reason ?? ""}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      <Card title={`Payout attempts (${attempts.length})`}>
        {attempts.length === 0 ? (
          <p className="text-sm text-slate-500">Not in a payout file yet.</p>
        ) : (
          <table className="w-full text-sm" data-testid="payout-attempts">
            <thead>
              <tr className="text-left text-slate-500">
                <th className="p-1">Attempt</th>
                <th className="p-1">File</th>
                <th className="p-1 text-right">Amount</th>
                <th className="p-1">Status</th>
                <th className="p-1">Reason</th>
                <th className="p-1">Times</th>
              </tr>
            </thead>
            <tbody>
              {attempts.map((a) => (
                <tr key={a.attempt} className="border-t align-top" data-testid={`payout-attempt-${a.attempt}`}>
                  <td className="p-1">{a.attempt}</td>
                  <td className="p-1">
                    <span className="font-mono text-xs">{a.fileName}</span>
                  </td>
                  <td className={num}>{money(a.amount, a.currency)}</td>
                  <td className="p-1">
                    <Badge>{a.state}</Badge>
                    {a.statuses.map((st) => (
                      <div key={`${st.reportMessageId}-${st.status}`} className="text-xs">
                        {st.status}
                        {st.reasonCode ? ` ${st.reasonCode}` : ""} · {when(st.importedAt)}
                      </div>
                    ))}
                  </td>
                  <td className="p-1">{a.reason ? `${a.reason.description} (${a.reasonCode})` : ""}</td>
                  <td className="p-1 text-xs">
                    sent {when(a.sentAt)}
                    {a.stateChangedAt ? <div>changed {when(a.stateChangedAt)}</div> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      {tries.length > 0 && (
        <Card title={`Payout providers (${tries.length})`}>
          <table className="w-full text-sm" data-testid="provider-attempts">
            <thead>
              <tr className="text-left text-slate-500">
                <th className="p-1">Try</th>
                <th className="p-1">Provider</th>
                <th className="p-1 text-right">Amount</th>
                <th className="p-1">Outcome</th>
                <th className="p-1">Request</th>
                <th className="p-1">Answer</th>
                <th className="p-1">Times</th>
              </tr>
            </thead>
            <tbody>
              {tries.map((a) => (
                <tr key={a.id} className="border-t align-top" data-testid={`provider-attempt-${a.seq}`}>
                  <td className="p-1">
                    {a.seq}
                    <div className="font-mono text-xs" data-testid="provider-attempt-id">
                      {a.id}
                    </div>
                  </td>
                  <td className="p-1">
                    {a.provider}
                    {a.providerReference ? <div className="font-mono text-xs">{a.providerReference}</div> : null}
                  </td>
                  <td className={num}>{money(a.amount, a.currency)}</td>
                  <td className="p-1">
                    <Badge>{a.state}</Badge> {a.outcomeCode ?? ""}
                  </td>
                  <td className="p-1 font-mono text-xs break-all">{a.request ? JSON.stringify(a.request) : ""}</td>
                  <td className="p-1 font-mono text-xs break-all">{a.answer ? JSON.stringify(a.answer) : ""}</td>
                  <td className="p-1 text-xs">
                    asked {when(a.createdAt)}
                    <div>changed {when(a.stateChangedAt)}</div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
      <Card title={`Monitoring (${evaluations.length})`}>
        <p className="mb-2 text-sm">
          <Link className="text-blue-700 underline" href="/console/monitoring">
            Rule sets, modes and snoozes
          </Link>
        </p>
        <ul className="text-sm" data-testid="monitoring-evaluations">
          {evaluations.map((e) => (
            <li key={e.id} className="mb-2">
              Rule set v{e.ruleSetVersion} ({e.run === "live" ? "live" : "shadow run"}) · <Badge>{e.outcome}</Badge> · mode {e.mode} · {when(e.createdAt)}
              <div>Fired: {e.fired.length ? e.fired.map((f) => `${f.rule} (${f.score})`).join(", ") : "none"}</div>
              {e.typologies.length ? <div>Typologies: {e.typologies.map((ty) => `${ty.typology} ${ty.score} → ${ty.outcome}`).join(", ")}</div> : null}
              {e.suppressed.length ? <div>Snoozed: {e.suppressed.join(", ")}</div> : null}
              <div className="font-mono text-xs text-slate-600">
                {Object.entries(e.aggregates)
                  .map(([k, v]) => `${k} = ${v}`)
                  .join(" · ")}
              </div>
            </li>
          ))}
        </ul>
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
      <Card title={`Operator actions (${actions.length})`}>
        {actions.length === 0 ? (
          <p className="text-sm text-slate-500">No operator action on this transfer.</p>
        ) : (
          <ol className="list-decimal pl-6 text-sm" data-testid="operator-actions">
            {actions.map((a) => (
              <li key={a.id}>
                {when(a.at)} · {a.operatorEmail} · <span className="font-mono">{a.action}</span>
                {a.reason ? <> · {a.reason}</> : null}
              </li>
            ))}
          </ol>
        )}
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
                    <td className={num}>{l.debit ? amount(fromMinor(l.debit, l.currency), l.currency) : ""}</td>
                    <td className={num}>{l.credit ? amount(fromMinor(l.credit, l.currency), l.currency) : ""}</td>
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
