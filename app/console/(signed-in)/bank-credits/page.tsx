import { Badge, Card, Empty, Flash, PageTitle, Pager, danger, input, param, primary, type SearchParams } from "@/components/console/ui";
import { pageParam } from "@/lib/console/page-param";
import { ready } from "@/lib/platform/ready";
import { bankCreditQueue } from "@/lib/reconciliation/queue";
import { matchCredit, returnCredit, uploadStatement } from "./actions";

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
  const { items, hasMore } = await bankCreditQueue(await ready(), page);
  const back = "/console/bank-credits";
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
                {c.state === "EXCESS"
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
            <form action={returnCredit} className="flex flex-wrap items-center gap-2">
              <input type="hidden" name="creditId" value={c.id} />
              <input type="hidden" name="back" value={back} />
              <label className="text-sm">
                Reason <input name="reason" required minLength={3} className={input} placeholder="Unknown payer" />
              </label>
              <button className={danger}>{`Return ${c.toReturn} ${c.currency}`}</button>
            </form>
          </div>
        </Card>
      ))}
      <Pager path={back} page={page} hasMore={hasMore} />
    </>
  );
}
