import Link from "next/link";
import { Badge, CustomerLabel, Empty, input, PageTitle, Pager, param, PartnerLabel, primary, type SearchParams } from "@/components/console/ui";
import { customerName, money, when } from "@/lib/operations/console/format";
import { pageParam } from "@/lib/operations/console/page-param";
import { requireOperator } from "@/lib/operations/console/session";
import { searchTransfers, TransferSearch, type QueryKind } from "@/lib/operations/console/transfer-search";
import { clock } from "@/lib/platform/clock";
import { periodOf } from "@/lib/finance/ledger";
import { ready } from "@/lib/platform/ready";
import { TRANSFER_STATES } from "@/lib/payments/transfers/state-machine";

export const metadata = { title: "Transfers · Console" };

const READ_AS: Record<QueryKind, string> = {
  none: "",
  transfer: "a transfer id",
  subscription: "a subscription id",
  customer: "a customer id",
  partner: "a partner id",
  reference: "an RF funding reference",
  amount: "an amount (sent, received or total)",
  name: "a name (customer, payer or beneficiary)",
};

// Every transfer, newest first, found by what an operator has in hand.
export default async function Transfers({ searchParams }: { searchParams: SearchParams }) {
  const operator = await requireOperator("reviewer");
  const sp = await searchParams;
  const page = pageParam(param(sp, "page"));
  const search = TransferSearch.parse({
    q: param(sp, "q") ?? "",
    state: param(sp, "state") || undefined,
    from: param(sp, "from") || undefined,
    to: param(sp, "to") || undefined,
  });
  const month = periodOf(clock.now());
  const { items, hasMore, kind } = await searchTransfers(await ready(), search, page);
  const kept: Record<string, string> = Object.fromEntries(
    Object.entries({ q: search.q, state: search.state ?? "", from: search.from ?? "", to: search.to ?? "" }).filter(([, v]) => v),
  );
  return (
    <>
      <PageTitle sub="Search by transfer id (trf_…), RF reference, amount, customer, payer or beneficiary name, sub_/cus_/partner_ id; narrow by state and dates (UTC).">
        Transfers
      </PageTitle>
      {operator.role !== "reviewer" ? (
        <p className="mb-2 text-sm" data-testid="transactions-export">
          Transactions of {month} for an examiner:{" "}
          <a className="text-blue-700 underline" href={`/console/transfers/export?period=${month}&format=csv`}>
            CSV
          </a>{" "}
          ·{" "}
          <a className="text-blue-700 underline" href={`/console/transfers/export?period=${month}&format=json`}>
            JSON
          </a>{" "}
          (any period: <code>?period=YYYY-MM</code> or <code>?from=&amp;to=</code>)
        </p>
      ) : null}
      <form className="mb-4 flex flex-wrap items-end gap-2 text-sm" role="search" method="get">
        <label className="grid gap-1">
          Search
          <input name="q" defaultValue={search.q} className={`${input} w-72`} placeholder="trf_…, RF18…, 52.99, Ana Lopez" />
        </label>
        <label className="grid gap-1">
          State
          <select name="state" defaultValue={search.state ?? ""} className={input}>
            <option value="">any</option>
            {TRANSFER_STATES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label className="grid gap-1">
          From
          <input type="date" name="from" defaultValue={search.from ?? ""} className={input} />
        </label>
        <label className="grid gap-1">
          To
          <input type="date" name="to" defaultValue={search.to ?? ""} className={input} />
        </label>
        <button className={primary}>Search</button>
      </form>
      {kind !== "none" ? (
        <p className="mb-2 text-sm text-slate-600" data-testid="search-read-as">
          “{search.q}” read as {READ_AS[kind]}.
        </p>
      ) : null}
      {items.length === 0 ? (
        <Empty>No transfer matches.</Empty>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full border-collapse bg-white text-sm" data-testid="transfers-table">
            <thead>
              <tr className="border-b text-left text-slate-500">
                <th className="p-2">Transfer</th>
                <th className="p-2">State</th>
                <th className="p-2 text-right">Sent</th>
                <th className="p-2">Customer</th>
                <th className="p-2">Beneficiary</th>
                <th className="p-2">Partner</th>
                <th className="p-2">Reference</th>
                <th className="p-2">Created</th>
              </tr>
            </thead>
            <tbody>
              {items.map((t) => (
                <tr key={t.id} className="border-b align-top" data-testid={`transfer-row-${t.id}`}>
                  <td className="p-2">
                    <Link className="font-mono text-blue-700 underline" href={`/console/transfers/${t.id}`}>
                      {t.id}
                    </Link>
                  </td>
                  <td className="p-2">
                    <Badge>{t.state}</Badge>
                  </td>
                  <td className="p-2 text-right tabular-nums">
                    {money(t.originAmount, t.originCurrency)}
                    <div className="text-xs text-slate-500">
                      → {money(t.destinationAmount, t.destinationCurrency)} · total {money(t.totalCustomerCost, t.originCurrency)}
                    </div>
                  </td>
                  <td className="p-2">
                    <CustomerLabel name={customerName(t.customerProfile)} id={t.subscriptionId} href={`/console/customers/${t.subscriptionId}`} />
                  </td>
                  <td className="p-2">
                    {t.beneficiaryFirst} {t.beneficiaryLast}
                  </td>
                  <td className="p-2">
                    <PartnerLabel name={t.partnerName} id={t.partnerId} />
                  </td>
                  <td className="p-2 font-mono text-xs">{t.reference ?? "—"}</td>
                  <td className="p-2">{when(t.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager path="/console/transfers" page={page} hasMore={hasMore} params={kept} />
    </>
  );
}
