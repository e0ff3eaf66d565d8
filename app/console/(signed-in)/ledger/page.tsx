import Link from "next/link";
import { Badge, Card, input, PageTitle, param, primary, type SearchParams } from "@/components/console/ui";
import { refundsDueCount } from "@/lib/console/money";
import { requireOperator } from "@/lib/console/session";
import { ACCOUNT_CODES, accountBalances, fromMinor, isAccountCode, trialBalance } from "@/lib/ledger";
import { ready } from "@/lib/platform/ready";

export const metadata = { title: "Ledger · Console" };

const num = "p-1 text-right font-mono tabular-nums";

export default async function LedgerPage({ searchParams }: { searchParams: SearchParams }) {
  await requireOperator("admin");
  const sp = await searchParams;
  const code = param(sp, "code");
  const currency = param(sp, "currency")?.trim().toUpperCase() || undefined;
  const transferId = param(sp, "transferId")?.trim() || undefined;
  const db = await ready();
  const totals = await trialBalance(db);
  const refunds = await refundsDueCount(db);
  const balances = await accountBalances(db, { code: isAccountCode(code) ? code : undefined, currency, transferId, limit: 200 });
  return (
    <>
      <PageTitle sub="Double-entry books in each currency's minor unit: every entry balances per currency, so each currency's debits equal its credits.">
        Ledger
      </PageTitle>
      <p className="mb-4 text-sm">
        <Link className="text-blue-700 underline" href="/console/refunds">
          Refunds due ({refunds})
        </Link>{" "}
        — refunds owed to customers, to record paid or failed.
      </p>
      <Card title="Trial balance">
        {totals.length === 0 ? (
          <p className="text-sm text-slate-500">Nothing posted yet.</p>
        ) : (
          <table className="w-full text-sm" data-testid="trial-balance">
            <thead>
              <tr className="text-left text-slate-500">
                <th className="p-1">Currency</th>
                <th className="p-1 text-right">Debits</th>
                <th className="p-1 text-right">Credits</th>
                <th className="p-1 text-right">Debits − credits</th>
              </tr>
            </thead>
            <tbody>
              {totals.map((t) => (
                <tr key={t.currency} className="border-t" data-currency={t.currency}>
                  <td className="p-1 font-mono">{t.currency}</td>
                  <td className={num}>{fromMinor(t.debit, t.currency)}</td>
                  <td className={num}>{fromMinor(t.credit, t.currency)}</td>
                  <td className={num} data-testid={`trial-sum-${t.currency}`}>
                    {fromMinor(t.debit - t.credit, t.currency)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p className="mt-3 text-sm">
          <a className="text-blue-700 underline" href="/console/ledger/export" download>
            Export journal lines (CSV)
          </a>
        </p>
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
          <button className={primary}>Filter</button>
        </form>
        <table className="w-full text-sm" data-testid="account-balances">
          <thead>
            <tr className="text-left text-slate-500">
              <th className="p-1">Account</th>
              <th className="p-1">Currency</th>
              <th className="p-1">Transfer</th>
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
                    "—"
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
