import Link from "next/link";
import { Badge, Card, danger, Empty, Flash, input, PageTitle, Pager, param, primary, type SearchParams } from "@/components/console/ui";
import { claimRefundsOwed } from "@/lib/payments/claims/claim-refunds";
import { money, when } from "@/lib/operations/console/format";
import { refundsCompleted, refundsDue } from "@/lib/operations/console/money";
import { pageParam } from "@/lib/operations/console/page-param";
import { requireOperator } from "@/lib/operations/console/session";
import { isSandboxProvider } from "@/lib/payments/providers";
import { ready } from "@/lib/platform/ready";
import { recentRefundFiles } from "@/lib/payments/payouts/refund-file";
import { makeRefundFiles, recordRefund } from "./actions";

export const metadata = { title: "Refunds due · Console" };

export default async function RefundsDue({ searchParams }: { searchParams: SearchParams }) {
  await requireOperator("admin");
  const sp = await searchParams;
  const page = pageParam(param(sp, "page"));
  const db = await ready();
  const { items, hasMore } = await refundsDue(db, page);
  const completed = await refundsCompleted(db);
  const claimRefunds = await claimRefundsOwed(db);
  const refundFiles = await recentRefundFiles(db);
  const back = "/console/refunds";
  return (
    <>
      <PageTitle
        sub={
          isSandboxProvider("refunds")
            ? "Refunds owed to customers. The sandbox refund provider completes them by itself; an operator may still record one."
            : "Refunds owed to customers: pay each from the bank to the account the funds came from, then record it paid with the bank's reference, or failed."
        }
      >
        Refunds due
      </PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      {items.length === 0 ? <Empty>No refund is due.</Empty> : null}
      {items.map((t) => (
        <Card
          key={t.id}
          title={
            <span className="flex flex-wrap items-center gap-2">
              <Link className="text-blue-700 underline" href={`/console/transfers/${t.id}`}>
                {t.id}
              </Link>
              <Badge>{t.refund.state}</Badge> {money(t.refund.amount ?? t.totalCustomerCost, t.originCurrency)} to{" "}
              {t.fundedFrom === "cash:card-clearing" ? "the card" : "the bank account"} it came from
            </span>
          }
        >
          <p className="mb-2 text-sm text-slate-600">
            Transfer {t.state} · refund owed since {when(t.refund.initiatedAt)}
            {t.refund.failureReason ? <> · failed: {t.refund.failureReason}</> : null}
          </p>
          {t.refund.state === "FAILED" ? (
            <form action={recordRefund} className="flex flex-wrap items-center gap-2">
              <input type="hidden" name="transferId" value={t.id} />
              <input type="hidden" name="back" value={back} />
              <input type="hidden" name="outcome" value="RETRY" />
              <input name="reason" required minLength={3} className={input} placeholder="Reason" aria-label={`Retry reason for ${t.id}`} />
              <button className={primary}>Retry</button>
            </form>
          ) : (
            <form action={recordRefund} className="flex flex-wrap items-center gap-2">
              <input type="hidden" name="transferId" value={t.id} />
              <input type="hidden" name="back" value={back} />
              <input name="bankReference" className={input} placeholder="Bank reference" aria-label={`Bank reference for ${t.id}`} />
              <input name="reason" required minLength={3} className={input} placeholder="Note" aria-label={`Note for ${t.id}`} />
              <button className={primary} name="outcome" value="PAID">
                Record paid
              </button>
              <button className={danger} name="outcome" value="FAILED">
                Record failed
              </button>
            </form>
          )}
        </Card>
      ))}
      <Pager path={back} page={page} hasMore={hasMore} />
      <Card title="Refund files (pain.001)">
        <p className="mb-2 text-sm text-slate-600">
          Pending refunds of transfers paid by bank transfer go back to the payer&apos;s account from the bank statement, in a pain.001 file for the collection
          account&apos;s bank. Each is PROCESSING until you record it paid.
        </p>
        <form action={makeRefundFiles} className="mb-2">
          <input type="hidden" name="back" value={back} />
          <button className={primary}>Generate refund file</button>
        </form>
        <ul className="text-sm" data-testid="refund-files">
          {refundFiles.map((f) => (
            <li key={f.id}>
              <a className="text-blue-700 underline" href={`/console/refund-files/${f.id}/xml`}>
                {f.id}
              </a>{" "}
              · {f.transactionCount} refund(s) · {money(f.controlSum, f.currency)} · {when(f.createdAt)}
            </li>
          ))}
        </ul>
      </Card>
      <Card title="Claim refunds owed">
        {claimRefunds.length === 0 ? <p className="text-sm text-slate-600">No claim refund is owed.</p> : null}
        {claimRefunds.map(({ refund: r, fundedFrom }) => (
          <form key={r.id} action={recordRefund} className="mb-2 flex flex-wrap items-center gap-2" data-testid="claim-refund-owed">
            <Link className="text-blue-700 underline" href={`/console/transfers/${r.transferId}`}>
              {r.transferId}
            </Link>
            <Badge>{r.state}</Badge> {money(r.amount, r.currency)} to {fundedFrom === "cash:card-clearing" ? "the card" : "the bank account"} it came from
            (claim resolved {when(r.createdAt)})
            <input type="hidden" name="transferId" value={r.transferId} />
            <input type="hidden" name="claimRefundId" value={r.id} />
            <input type="hidden" name="back" value={back} />
            <input name="bankReference" className={input} placeholder="Bank reference" aria-label={`Bank reference for claim refund ${r.id}`} />
            <input name="reason" required minLength={3} className={input} placeholder="Note" aria-label={`Note for claim refund ${r.id}`} />
            <button className={primary} name="outcome" value="PAID">
              Record paid
            </button>
          </form>
        ))}
      </Card>
      <Card title="Completed refunds (latest 50)">
        {completed.length === 0 ? (
          <p className="text-sm text-slate-600">No refund completed yet.</p>
        ) : (
          <table className="w-full border-collapse text-sm" data-testid="refunds-completed">
            <thead>
              <tr className="border-b text-left">
                <th className="p-2">Transfer</th>
                <th className="p-2 text-right">Amount</th>
                <th className="p-2">Bank reference</th>
                <th className="p-2">Completed</th>
              </tr>
            </thead>
            <tbody>
              {completed.map((r) => (
                <tr key={r.transferId} className="border-b">
                  <td className="p-2">
                    <Link className="text-blue-700 underline" href={`/console/transfers/${r.transferId}`}>
                      {r.transferId}
                    </Link>
                  </td>
                  <td className="p-2 text-right">{money(r.amount, r.currency)}</td>
                  <td className="p-2 font-mono">{r.bankReference ?? "—"}</td>
                  <td className="p-2">{r.completedAt?.toISOString() ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
    </>
  );
}
