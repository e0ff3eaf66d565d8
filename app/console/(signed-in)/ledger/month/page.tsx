import Link from "next/link";
import { Badge, Card, danger, Flash, input, PageTitle, param, primary, type SearchParams } from "@/components/console/ui";
import { lastMonth } from "@/lib/finance/books/dates";
import { listPeriods } from "@/lib/finance/books/periods";
import { profitAndLoss } from "@/lib/finance/books/reports";
import { clock } from "@/lib/platform/clock";
import { when } from "@/lib/operations/console/format";
import { requireOperator } from "@/lib/operations/console/session";
import { fromMinor, isPeriod, periodBounds } from "@/lib/finance/ledger";
import { referenceRates } from "@/lib/payments/pricing/rate-store";
import { ready } from "@/lib/platform/ready";
import { changeLedgerPeriod, payPartnerFees } from "../actions";

export const metadata = { title: "Month end · Ledger · Console" };

const num = "p-1 text-right font-mono tabular-nums";

export default async function MonthEndPage({ searchParams }: { searchParams: SearchParams }) {
  await requireOperator("admin");
  const sp = await searchParams;
  const now = clock.now();
  const asked = param(sp, "period")?.trim() || "";
  const period = isPeriod(asked) ? asked : lastMonth(now);
  const db = await ready();
  const pnl = await profitAndLoss(db, periodBounds(period), await referenceRates(db));
  const periods = await listPeriods(db);
  const state = periods.find((p) => p.period === period);
  const closed = state?.state === "CLOSED";
  // Back to this month after closing or reopening it (not to the default one).
  const back = `/console/ledger/month?period=${period}`;
  return (
    <>
      <PageTitle sub="Profit and loss of a month (entries dated in it, UTC), its close, and its general ledger.">Month end {period}</PageTitle>
      <Flash
        notice={param(sp, "notice")}
        error={param(sp, "error") ?? (asked && !isPeriod(asked) ? `period=${asked.slice(0, 20)} is not a month (2026-10): showing ${period}.` : undefined)}
      />
      <form className="mb-4 flex flex-wrap items-center gap-2" method="get">
        <input name="period" aria-label="Period" className={input} placeholder="2026-10" defaultValue={period} size={10} />
        <button className={primary}>Show</button>
        <Link className="text-sm text-blue-700 underline" href="/console/ledger">
          Back to the ledger
        </Link>
      </form>
      <Card title="Profit and loss">
        <table className="w-full text-sm" data-testid="profit-and-loss">
          <thead>
            <tr className="text-left text-slate-500">
              <th className="p-1">Line</th>
              <th className="p-1">Currency</th>
              <th className="p-1 text-right">Amount</th>
            </tr>
          </thead>
          <tbody>
            {pnl.feeRevenue.map((r) => (
              <tr key={`fee-${r.currency}`} className="border-t" data-testid={`pnl-fee-revenue-${r.currency}`}>
                <td className="p-1">Fee revenue (our own fee)</td>
                <td className="p-1 font-mono">{r.currency}</td>
                <td className={num}>{fromMinor(r.amount, r.currency)}</td>
              </tr>
            ))}
            {pnl.fxPairs.map((p) => (
              <tr
                key={`fx-${p.originCurrency}-${p.destinationCurrency}`}
                className="border-t"
                data-testid={`pnl-fx-${p.originCurrency}-${p.destinationCurrency}`}
              >
                <td className="p-1">
                  FX result {p.originCurrency} → {p.destinationCurrency} ({fromMinor(p.originMinor, p.originCurrency)} in,{" "}
                  {fromMinor(p.destinationMinor, p.destinationCurrency)} out, at reference rates)
                </td>
                <td className="p-1 font-mono">{p.originCurrency}</td>
                <td className={num}>{p.resultMinor === null ? "no reference rate" : fromMinor(p.resultMinor, p.originCurrency)}</td>
              </tr>
            ))}
            {pnl.expenses.map((e) => (
              <tr key={`exp-${e.code}-${e.currency}`} className="border-t">
                <td className="p-1">
                  Expense <Badge>{e.code}</Badge>
                </td>
                <td className="p-1 font-mono">{e.currency}</td>
                <td className={num}>{fromMinor(-e.amount, e.currency)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            {pnl.netResult.map((n) => (
              <tr key={`net-${n.currency}`} className="border-t-2 border-slate-400 font-semibold" data-testid={`pnl-net-result-${n.currency}`}>
                <td className="p-1">Net result (fee revenue + FX result − expenses)</td>
                <td className="p-1 font-mono">{n.currency}</td>
                <td className={num}>{n.amount === null ? "unknown: no reference rate" : fromMinor(n.amount, n.currency)}</td>
              </tr>
            ))}
          </tfoot>
        </table>
        {pnl.netResult.length === 0 && <p className="text-sm text-slate-500">Nothing earned or spent in {period}.</p>}
        <h3 className="mb-1 mt-4 text-sm font-semibold">Partner fees owed (not our revenue)</h3>
        <table className="w-full text-sm" data-testid="partner-fees-owed">
          <tbody>
            {pnl.partnerFeesOwed.map((r) => (
              <tr key={`${r.partnerId}-${r.currency}`} className="border-t">
                <td className="p-1 font-mono">{r.partnerId}</td>
                <td className="p-1 font-mono">{r.currency}</td>
                <td className={num}>{fromMinor(r.amount, r.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {pnl.partnerFeesOwed.length === 0 && <p className="text-sm text-slate-500">None accrued in {period}.</p>}
        <h3 className="mb-1 mt-4 text-sm font-semibold">FX as the ledger holds it (fx:conversion, credit − debit)</h3>
        <p className="text-sm font-mono" data-testid="fx-by-currency">
          {pnl.fxByCurrency.map((f) => `${f.currency} ${fromMinor(f.amount, f.currency)}`).join(" · ") || "—"}
        </p>
        <p className="mt-3 text-sm">
          <a className="text-blue-700 underline" href={`/console/ledger/export?period=${period}`} download>
            Export the general ledger of {period} (CSV)
          </a>
        </p>
      </Card>
      <Card title={`Period ${period}: ${closed ? "closed" : "open"}`}>
        <p className="mb-2 text-sm text-slate-600" data-testid="period-state">
          {state ? `${state.state} since ${when(state.changedAt)}` : "OPEN"}. A closed month refuses postings dated in it; corrections post in the open month.
        </p>
        <form action={changeLedgerPeriod} className="flex flex-wrap items-center gap-2">
          <input type="hidden" name="back" value={back} />
          <input type="hidden" name="period" value={period} />
          <input type="hidden" name="trigger" value={closed ? "reopen" : "close"} />
          <input name="reason" required minLength={3} className={input} placeholder="Reason" aria-label="Reason" />
          <button className={closed ? danger : primary}>{closed ? `Reopen ${period}` : `Close ${period}`}</button>
        </form>
      </Card>
      <Card title="Record a payment of partner fees">
        <form action={payPartnerFees} className="flex flex-wrap items-center gap-2">
          <input type="hidden" name="back" value={back} />
          <input name="partnerId" required className={input} placeholder="Partner id" aria-label="Partner" />
          <input name="currency" required className={input} placeholder="USD" aria-label="Payment currency" size={5} />
          <input name="amount" required className={input} placeholder="25.00" aria-label="Amount" size={10} />
          <input name="bankReference" required className={input} placeholder="Bank reference" aria-label="Bank reference" />
          <button className={primary}>Record payment</button>
        </form>
      </Card>
      <Card title="Closed periods">
        <ul className="text-sm">
          {periods.map((p) => (
            <li key={p.period}>
              <Link className="text-blue-700 underline" href={`/console/ledger/month?period=${p.period}`}>
                {p.period}
              </Link>{" "}
              {p.state} · {when(p.changedAt)}
            </li>
          ))}
        </ul>
      </Card>
    </>
  );
}
