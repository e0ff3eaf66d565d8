import { Badge, Card, Empty, Flash, PageTitle, Pager, danger, input, param, primary, type SearchParams } from "@/components/console/ui";
import { pageParam } from "@/lib/operations/console/page-param";
import { ready } from "@/lib/platform/ready";
import { DomainError } from "@/lib/platform/errors";
import { bankCreditQueue } from "@/lib/payments/reconciliation/queue";
import { creditSearchOf, searchBankCredits, type CreditSearch } from "@/lib/payments/reconciliation/search";
import { executeCreditReturn, matchCredit, returnCredit, uploadStatement } from "./actions";

export const metadata = { title: "Bank credits · Console" };

const REASONS: Record<string, string> = {
  UNMATCHED: "No funding session has this reference",
  PARTIAL: "Less than the sum due",
  OVERPAID: "More than the sum due",
  WRONG_CURRENCY: "Not the transfer's currency",
  LATE: "The transfer no longer waits for funding",
};

export default async function BankCredits({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const page = pageParam(param(sp, "page"));
  const db = await ready();
  const { items, hasMore } = await bankCreditQueue(db, page);
  const back = "/console/bank-credits";
  // Search: every state, so matched credits and returns are found too.
  const fields = ["amount", "payer", "reference", "from", "to", "state"] as const;
  const raw = Object.fromEntries(fields.map((f) => [f, param(sp, f)]));
  const searching = fields.some((f) => raw[f]);
  let search: CreditSearch | null = null;
  let searchError: string | null = null;
  try {
    search = searching ? creditSearchOf(raw) : null;
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    searchError = e.message;
  }
  const found = search ? await searchBankCredits(db, search) : null;
  return (
    <>
      <PageTitle sub="Credits from bank statements that did not fund a transfer by themselves: match one to a transfer in funding, or return it.">
        Bank credits
      </PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      <Card title="Import a statement">
        <form action={uploadStatement} className="flex flex-wrap items-center gap-2">
          <input type="hidden" name="back" value={back} />
          <label className="text-sm">
            camt.053.001.08 file <input type="file" name="statement" accept=".xml,application/xml,text/xml" required className={input} />
          </label>
          <button className={primary}>Import</button>
        </form>
      </Card>
      <Card title="Search credits">
        <form method="get" action={back} className="flex flex-wrap items-end gap-2 text-sm">
          <label>
            Amount <input name="amount" defaultValue={raw.amount ?? ""} className={input} placeholder="102.99" size={10} />
          </label>
          <label>
            Payer <input name="payer" defaultValue={raw.payer ?? ""} className={input} placeholder="name or account" />
          </label>
          <label>
            Reference <input name="reference" defaultValue={raw.reference ?? ""} className={input} placeholder="RF…, text or bank ref." />
          </label>
          <label>
            Booked from <input name="from" type="date" defaultValue={raw.from ?? ""} className={input} />
          </label>
          <label>
            to <input name="to" type="date" defaultValue={raw.to ?? ""} className={input} />
          </label>
          <label>
            State{" "}
            <select name="state" defaultValue={raw.state ?? ""} className={input}>
              <option value="">any</option>
              {["QUEUED", "MATCHED", "EXCESS", "RETURN_REQUESTED", "RETURNED"].map((st) => (
                <option key={st}>{st}</option>
              ))}
            </select>
          </label>
          <button className={primary}>Search</button>
        </form>
        {searchError && <p className="mt-2 text-sm text-red-700">{searchError}</p>}
        {found && (
          <table className="mt-3 w-full border-collapse text-sm" data-testid="credit-search">
            <thead>
              <tr className="border-b text-left">
                <th className="p-2">Booked</th>
                <th className="p-2 text-right">Amount</th>
                <th className="p-2">Payer</th>
                <th className="p-2">Reference</th>
                <th className="p-2">State</th>
                <th className="p-2">Transfer / return</th>
              </tr>
            </thead>
            <tbody>
              {found.items.map((c) => (
                <tr key={c.id} className="border-b align-top">
                  <td className="p-2">{c.bookingDate ?? "?"}</td>
                  <td className="p-2 text-right font-mono">
                    {c.amount} {c.currency}
                  </td>
                  <td className="p-2">
                    {c.payerName ?? "unknown"} {c.payerAccount ? `(${c.payerAccount})` : ""}
                  </td>
                  <td className="p-2 font-mono">
                    {c.creditorReference ?? c.remittance ?? "none"}
                    <div className="text-xs text-slate-500">{c.bankReference}</div>
                  </td>
                  <td className="p-2">
                    <Badge>{c.state}</Badge>
                    {c.writtenOffAmount ? <div className="text-xs text-slate-500">written off {c.writtenOffAmount}</div> : null}
                  </td>
                  <td className="p-2">
                    {c.transferId ?? ""}
                    {c.returnBankReference ? (
                      <div className="text-xs">
                        returned {c.returnedAmount}, bank ref. {c.returnBankReference}
                      </div>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {found && found.items.length === 0 && <p className="mt-2 text-sm text-slate-600">No credit matches.</p>}
      </Card>
      {items.length === 0 ? <Empty>No bank credit waits for an operator.</Empty> : null}
      {items.map((c) => (
        <Card
          key={c.id}
          title={
            <span data-testid="bank-credit">
              {c.amount} {c.currency} · <Badge>{c.bankReference}</Badge>
            </span>
          }
        >
          <dl className="mb-3 grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
            <div>
              <dt className="inline text-slate-600">Why: </dt>
              <dd className="inline">
                {c.state === "RETURN_REQUESTED"
                  ? `Return requested: ${c.toReturn} ${c.currency} to send back from the bank, then record it here`
                  : c.state === "EXCESS"
                    ? `Over-payment: ${c.toReturn} ${c.currency} to return (transfer ${c.transferId} funded)`
                    : REASONS[c.reason ?? "UNMATCHED"]}
              </dd>
            </div>
            <div>
              <dt className="inline text-slate-600">Reference: </dt>
              <dd className="inline font-mono">{c.creditorReference ?? c.remittance ?? "none"}</dd>
            </div>
            <div>
              <dt className="inline text-slate-600">Payer: </dt>
              <dd className="inline">
                {c.payerName ?? "unknown"} {c.payerAccount ? `(${c.payerAccount})` : ""}
              </dd>
            </div>
            <div>
              <dt className="inline text-slate-600">Booked: </dt>
              <dd className="inline">
                {c.bookingDate ?? "?"} · statement {c.statementId}
              </dd>
            </div>
          </dl>
          <div className="flex flex-col gap-2">
            {c.state === "QUEUED" && (
              <form action={matchCredit} className="flex flex-wrap items-center gap-2">
                <input type="hidden" name="creditId" value={c.id} />
                <input type="hidden" name="back" value={back} />
                <label className="text-sm">
                  Transfer <input name="transferId" required defaultValue={c.transferId ?? ""} className={input} placeholder="trf_..." />
                </label>
                <label className="text-sm">
                  Reason <input name="reason" required minLength={3} className={input} placeholder="Payer confirmed by phone" />
                </label>
                <button className={primary}>Match</button>
              </form>
            )}
            {c.state === "RETURN_REQUESTED" ? (
              <form action={executeCreditReturn} className="flex flex-wrap items-center gap-2">
                <input type="hidden" name="creditId" value={c.id} />
                <input type="hidden" name="back" value={back} />
                <label className="text-sm">
                  Bank reference <input name="bankReference" required className={input} placeholder="The bank's reference of the return" />
                </label>
                <label className="text-sm">
                  Reason <input name="reason" required minLength={3} className={input} placeholder="Sent from the bank" />
                </label>
                <button className={primary}>{`Record ${c.toReturn} ${c.currency} returned`}</button>
              </form>
            ) : (
              <form action={returnCredit} className="flex flex-wrap items-center gap-2">
                <input type="hidden" name="creditId" value={c.id} />
                <input type="hidden" name="back" value={back} />
                <label className="text-sm">
                  Reason <input name="reason" required minLength={3} className={input} placeholder="Unknown payer" />
                </label>
                <button className={danger}>{`Return ${c.toReturn} ${c.currency}`}</button>
              </form>
            )}
          </div>
        </Card>
      ))}
      <Pager path={back} page={page} hasMore={hasMore} />
    </>
  );
}
