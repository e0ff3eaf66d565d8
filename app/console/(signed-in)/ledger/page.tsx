import Link from "next/link";
import { Badge, Card, Flash, input, PageTitle, param, primary, type SearchParams } from "@/components/console/ui";
import { parseAsOf } from "@/lib/finance/books/dates";
import { safeguarding, trialBalanceAsOf } from "@/lib/finance/books/reports";
import { clock } from "@/lib/platform/clock";
import { when } from "@/lib/operations/console/format";
import { refundsDueCount } from "@/lib/operations/console/money";
import { requireOperator } from "@/lib/operations/console/session";
import { ACCOUNT_CODES, accountBalances, fromMinor, isAccountCode } from "@/lib/finance/ledger";
import { ready } from "@/lib/platform/ready";

export const metadata = { title: "Ledger · Console" };

const num = "p-1 text-right font-mono tabular-nums";

export default async function LedgerPage({ searchParams }: { searchParams: SearchParams }) {
  await requireOperator("admin");
  const sp = await searchParams;
  const code = param(sp, "code");
  const currency = param(sp, "currency")?.trim().toUpperCase() || undefined;
  const transferId = param(sp, "transferId")?.trim() || undefined;
  const asOfParam = param(sp, "asOf")?.trim() || "";
  const parsed = asOfParam ? parseAsOf(asOfParam) : null;
  const asOf = parsed ?? clock.now();
  const db = await ready();
  const trial = await trialBalanceAsOf(db, asOf);
  const held = await safeguarding(db, asOf);
  const refunds = await refundsDueCount(db);
  const balances = await accountBalances(db, { code: isAccountCode(code) ? code : undefined, currency, transferId, asOf, limit: 200 });
  return (
    <>
      <PageTitle sub="Double-entry books in each currency's minor unit: every entry balances per currency, so each currency's debit balances equal its credit balances.">
        Ledger
      </PageTitle>
      <Flash error={asOfParam && !parsed ? `asOf=${asOfParam.slice(0, 40)} is not a date (2026-10-31) or an RFC 3339 time: showing now.` : undefined} />
      <nav aria-label="Books" className="mb-4 flex flex-wrap gap-4 text-sm">
        <Link className="text-blue-700 underline" href="/console/ledger/month">
          Month end (profit and loss, close)
        </Link>
        <Link className="text-blue-700 underline" href="/console/ledger/journals">
          Manual journals
        </Link>
        <Link className="text-blue-700 underline" href="/console/ledger/reconciliation">
          Bank reconciliation
        </Link>
        <Link className="text-blue-700 underline" href="/console/refunds">
          Refunds due ({refunds})
        </Link>
      </nav>
      <Card title={`Trial balance as of ${when(asOf)}`}>
        <form className="mb-3 flex flex-wrap items-center gap-2" method="get">
          <input name="asOf" aria-label="As of" className={input} placeholder="2026-10-31 or 2026-10-31T12:00:00Z" defaultValue={asOfParam} size={28} />
          <button className={primary}>Show</button>
        </form>
        {trial.rows.length === 0 ? (
          <p className="text-sm text-slate-500">Nothing posted by then.</p>
        ) : (
          <table className="w-full text-sm" data-testid="trial-balance">
            <thead>
              <tr className="text-left text-slate-500">
                <th className="p-1">Account</th>
                <th className="p-1">Currency</th>
                <th className="p-1 text-right">Debit</th>
                <th className="p-1 text-right">Credit</th>
              </tr>
            </thead>
            {trial.totals.map((t) => (
              <tbody key={t.currency} data-currency={t.currency}>
                {trial.subtotals
                  .filter((s) => s.currency === t.currency)
                  .map((s) => (
                    <FamilyRows
                      key={s.family}
                      family={s.family}
                      balance={s.balance}
                      currency={t.currency}
                      rows={trial.rows.filter((r) => r.currency === t.currency && r.family === s.family)}
                    />
                  ))}
                <tr className="border-t-2 border-slate-400 font-semibold" data-testid={`trial-total-${t.currency}`}>
                  <td className="p-1">Total</td>
                  <td className="p-1 font-mono">{t.currency}</td>
                  <td className={num}>{fromMinor(t.debit, t.currency)}</td>
                  <td className={num}>{fromMinor(t.credit, t.currency)}</td>
                </tr>
              </tbody>
            ))}
          </table>
        )}
        <p className="mt-3 text-sm">
          <a className="text-blue-700 underline" href="/console/ledger/export" download>
            Export the general ledger (CSV)
          </a>
        </p>
      </Card>
      <Card title="Safeguarding">
        <p className="mb-2 text-sm text-slate-600">
          Customer money held (collection, card clearing and payout bank cash) against what is owed: funds of transfers not yet paid out, refunds due,
          unallocated credits and blocked funds.
        </p>
        <table className="w-full text-sm" data-testid="safeguarding">
          <thead>
            <tr className="text-left text-slate-500">
              <th className="p-1">Currency</th>
              <th className="p-1 text-right">Held</th>
              <th className="p-1 text-right">Obligations</th>
              <th className="p-1 text-right">Surplus (shortfall)</th>
            </tr>
          </thead>
          <tbody>
            {held.map((h) => (
              <tr key={h.currency} className="border-t" data-currency={h.currency}>
                <td className="p-1 font-mono">{h.currency}</td>
                <td className={num}>{fromMinor(h.held, h.currency)}</td>
                <td className={num}>{fromMinor(h.obligations, h.currency)}</td>
                <td className={`${num} ${h.surplus < 0n ? "text-red-700" : ""}`}>{fromMinor(h.surplus, h.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      <Card title="Account balances">
        <form className="mb-3 flex flex-wrap items-center gap-2" method="get">
          <select name="code" aria-label="Account" className={input} defaultValue={code ?? ""}>
            <option value="">every account</option>
            {ACCOUNT_CODES.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
          <input name="currency" aria-label="Currency" className={input} placeholder="Currency" defaultValue={currency ?? ""} size={8} />
          <input name="transferId" aria-label="Transfer" className={input} placeholder="Transfer id" defaultValue={transferId ?? ""} />
          {asOfParam ? <input type="hidden" name="asOf" value={asOfParam} /> : null}
          <button className={primary}>Filter</button>
        </form>
        <table className="w-full text-sm" data-testid="account-balances">
          <thead>
            <tr className="text-left text-slate-500">
              <th className="p-1">Account</th>
              <th className="p-1">Currency</th>
              <th className="p-1">Transfer / partner</th>
              <th className="p-1 text-right">Debits</th>
              <th className="p-1 text-right">Credits</th>
              <th className="p-1 text-right">Balance (Dr − Cr)</th>
            </tr>
          </thead>
          <tbody>
            {balances.map((b) => (
              <tr key={b.accountId} className="border-t">
                <td className="p-1">
                  <Badge>{b.code}</Badge>
                </td>
                <td className="p-1 font-mono">{b.currency}</td>
                <td className="p-1 font-mono">
                  {b.transferId ? (
                    <Link className="text-blue-700 underline" href={`/console/transfers/${b.transferId}`}>
                      {b.transferId}
                    </Link>
                  ) : (
                    (b.partnerId ?? "—")
                  )}
                </td>
                <td className={num}>{fromMinor(b.debit, b.currency)}</td>
                <td className={num}>{fromMinor(b.credit, b.currency)}</td>
                <td className={num}>{fromMinor(b.balance, b.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {balances.length === 0 && <p className="text-sm text-slate-500">No account matches.</p>}
      </Card>
    </>
  );
}

function FamilyRows({
  family,
  balance,
  currency,
  rows,
}: {
  family: string;
  balance: bigint;
  currency: string;
  rows: { code: string; partnerId: string | null; balance: bigint }[];
}) {
  return (
    <>
      {rows.map((r) => (
        <tr key={`${r.code}|${r.partnerId ?? ""}`} className="border-t" data-testid="trial-row">
          <td className="p-1">
            <Badge>{r.partnerId ? `${r.code}:${r.partnerId}` : r.code}</Badge>
          </td>
          <td className="p-1 font-mono">{currency}</td>
          <td className={num}>{r.balance > 0n ? fromMinor(r.balance, currency) : ""}</td>
          <td className={num}>{r.balance < 0n ? fromMinor(-r.balance, currency) : ""}</td>
        </tr>
      ))}
      <tr className="border-t bg-slate-50 text-slate-600" data-testid={`trial-subtotal-${currency}-${family}`}>
        <td className="p-1 italic">Subtotal {family}</td>
        <td className="p-1 font-mono">{currency}</td>
        <td className={num}>{balance > 0n ? fromMinor(balance, currency) : ""}</td>
        <td className={num}>{balance < 0n ? fromMinor(-balance, currency) : ""}</td>
      </tr>
    </>
  );
}
