import { Badge, Card, Flash, input, PageTitle, param, primary, type SearchParams } from "@/components/console/ui";
import { clock } from "@/lib/platform/clock";
import { money } from "@/lib/operations/console/format";
import { requireOperator } from "@/lib/operations/console/session";
import { liquidityForecast } from "@/lib/payments/payouts/prefunding";
import { latestPrefundingStatements, statementProviders } from "@/lib/payments/payouts/prefunding-statement";
import { ready } from "@/lib/platform/ready";
import { importPrefundingStatement, topUpPrefunding } from "./actions";

export const metadata = { title: "Payout liquidity · Console" };

const num = "p-1 text-right font-mono tabular-nums";

export default async function LiquidityPage({ searchParams }: { searchParams: SearchParams }) {
  await requireOperator("admin");
  const sp = await searchParams;
  const db = await ready();
  const rows = await liquidityForecast(db, clock.now());
  const short = rows.filter((r) => r.short);
  const statements = await latestPrefundingStatements(db);
  const differing = statements.filter((s) => s.differs);
  return (
    <>
      <PageTitle sub="Each payout provider's prefunding per currency: what it holds, what its payouts in flight will draw, the payouts held for cover and the next three business days' forecast.">
        Payout liquidity
      </PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      {short.length > 0 && (
        <div className="mb-4 rounded border border-red-300 bg-red-50 p-3 text-sm text-red-800" role="alert" data-testid="liquidity-alert">
          Prefunding low:{" "}
          {short
            .map(
              (r) => `${r.provider} ${r.currency} cover ${money(r.cover, r.currency)} against ${money(r.minimumCover, r.currency)} needed, ${r.heldCount} held`,
            )
            .join("; ")}
        </div>
      )}
      {differing.length > 0 && (
        <div className="mb-4 rounded border border-red-300 bg-red-50 p-3 text-sm text-red-800" role="alert" data-testid="statement-alert">
          Provider statement differs from our prefunding:{" "}
          {differing
            .map(
              (s) =>
                `${s.provider} ${s.currency} statement ${money(s.statement, s.currency)}, ours ${money(s.ledger, s.currency)}, difference ${money(s.difference, s.currency)}`,
            )
            .join("; ")}
        </div>
      )}
      <Card title="Prefunding and forecast">
        <table className="w-full text-sm" data-testid="liquidity-forecast">
          <thead>
            <tr className="text-left text-slate-500">
              <th className="p-1">Provider</th>
              <th className="p-1">Currency</th>
              <th className="p-1 text-right">Balance</th>
              <th className="p-1 text-right">In flight</th>
              <th className="p-1 text-right">Cover</th>
              <th className="p-1 text-right">Held for cover</th>
              <th className="p-1 text-right">Next 3 business days</th>
              <th className="p-1">Status</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.provider}-${r.currency}`} className="border-t" data-testid={`liquidity-${r.provider}-${r.currency}`}>
                <td className="p-1">{r.provider}</td>
                <td className="p-1">{r.currency}</td>
                <td className={num}>{money(r.balance, r.currency)}</td>
                <td className={num}>{money(r.inFlight, r.currency)}</td>
                <td className={num}>{money(r.cover, r.currency)}</td>
                <td className={num}>
                  {r.heldCount} · {money(r.held, r.currency)}
                </td>
                <td className={num}>{money(r.forecast3Days, r.currency)}</td>
                <td className="p-1">{r.short ? <Badge>LOW</Badge> : "ok"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      <Card title="Provider statements">
        <p className="mb-2 text-sm text-slate-600">
          The latest balance statement of each provider and currency, set against our prefunding account at the statement&apos;s time.
        </p>
        {statements.length === 0 ? (
          <p className="text-sm text-slate-500">No statement imported yet.</p>
        ) : (
          <table className="w-full text-sm" data-testid="prefunding-statements">
            <thead>
              <tr className="text-left text-slate-500">
                <th className="p-1">Provider</th>
                <th className="p-1">Currency</th>
                <th className="p-1">Statement</th>
                <th className="p-1">As of</th>
                <th className="p-1 text-right">Provider says</th>
                <th className="p-1 text-right">Our prefunding</th>
                <th className="p-1 text-right">Difference</th>
                <th className="p-1">Status</th>
              </tr>
            </thead>
            <tbody>
              {statements.map((s) => (
                <tr key={`${s.provider}-${s.currency}`} className="border-t" data-testid={`statement-${s.provider}-${s.currency}`}>
                  <td className="p-1">{s.provider}</td>
                  <td className="p-1">{s.currency}</td>
                  <td className="p-1 font-mono">{s.reference}</td>
                  <td className="p-1">{s.asOf.toISOString()}</td>
                  <td className={num}>{money(s.statement, s.currency)}</td>
                  <td className={num}>{money(s.ledger, s.currency)}</td>
                  <td className={num}>{money(s.difference, s.currency)}</td>
                  <td className="p-1">{s.differs ? <Badge>DIFFERENCE</Badge> : "matches"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <form action={importPrefundingStatement} className="mt-3 flex flex-wrap items-center gap-2 text-sm">
          <input type="hidden" name="back" value="/console/liquidity" />
          <select name="provider" required className={input} aria-label="Statement provider">
            {statementProviders().map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
          <input type="file" name="statement" accept=".json,application/json" required aria-label="Statement file" className={input} />
          <button className={primary}>Import statement</button>
        </form>
      </Card>
      <Card title="Top up a provider's prefunding">
        <p className="mb-2 text-sm text-slate-600">
          Record money sent from the operating account to the provider; a second admin approves, and the payouts held for its cover are released.
        </p>
        <form action={topUpPrefunding} className="flex flex-wrap items-center gap-2">
          <input type="hidden" name="back" value="/console/liquidity" />
          <input name="provider" required className={input} placeholder="aggregator" aria-label="Provider" />
          <input name="currency" required className={input} placeholder="MXN" aria-label="Currency" size={5} />
          <input name="amount" required className={input} placeholder="250000.00" aria-label="Amount" size={12} />
          <input name="bankReference" required className={input} placeholder="Bank reference" aria-label="Bank reference" />
          <button className={primary}>Top up</button>
        </form>
      </Card>
    </>
  );
}
