import Link from "next/link";
import { DecisionForm } from "@/components/console/decision-form";
import { Badge, Card, danger, Empty, Flash, input, PageTitle, Pager, param, primary, type SearchParams } from "@/components/console/ui";
import { pageParam } from "@/lib/operations/console/page-param";
import { requireOperator } from "@/lib/operations/console/session";
import { payoutsAwaitingRepair } from "@/lib/payments/payouts/attempts";
import { listPayoutFiles, pendingNetworkCancellations } from "@/lib/payments/payouts/console";
import { payoutRejection } from "@/lib/payments/payouts/reject-reasons";
import { returnedPayouts } from "@/lib/payments/payouts/returned";
import { ready } from "@/lib/platform/ready";
import { providers } from "@/lib/payments/providers";
import {
  generateNowAction,
  importStatusReportAction,
  refundRejectedPayoutAction,
  refundReturnedPayoutAction,
  repairPayoutAction,
  resolveCancellationAction,
} from "./actions";

export const metadata = { title: "Payout files · Console" };

const BACK = "/console/payout-files";

export default async function PayoutFiles({ searchParams }: { searchParams: SearchParams }) {
  await requireOperator("admin");
  const sp = await searchParams;
  const page = pageParam(param(sp, "page"));
  const db = await ready();
  const { items, hasMore } = await listPayoutFiles(db, page);
  const cancellations = await pendingNetworkCancellations(db);
  const rejected = await payoutsAwaitingRepair(db);
  const returned = await returnedPayouts(db);
  return (
    <>
      <PageTitle sub={`pain.001 credit-transfer files to the payout banks, and their pain.002 status reports (payout provider: ${providers().payout}).`}>
        Payout files
      </PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Card title="Generate now">
          <form action={generateNowAction} className="flex items-center gap-2 text-sm">
            <input type="hidden" name="back" value={BACK} />
            <span className="text-slate-600">Every transfer ready for payout, one file per bank and currency.</span>
            <button className={primary}>Generate files</button>
          </form>
        </Card>
        <Card title="Import a pain.002 status report">
          <form action={importStatusReportAction} className="flex flex-wrap items-center gap-2 text-sm">
            <input type="hidden" name="back" value={BACK} />
            <input type="file" name="report" accept=".xml,application/xml,text/xml" required aria-label="pain.002 file" className={input} />
            <button className={primary}>Import</button>
          </form>
        </Card>
      </div>
      {cancellations.length > 0 && (
        <Card title="Customer cancellations of transfers in a file">
          <p className="mb-2 text-sm text-slate-600">Ask the bank to recall the payment, then record its answer.</p>
          <ul className="space-y-3">
            {cancellations.map((c) => (
              <li key={c.transferId} className="text-sm" data-testid="network-cancellation">
                <div className="mb-1">
                  <Badge>{c.transferId}</Badge> {c.state} · file {c.payoutFileId} · asked {c.requestedAt.toISOString()}
                </div>
                <DecisionForm
                  action={resolveCancellationAction}
                  hidden={{ transferId: c.transferId }}
                  back={BACK}
                  placeholder="Recall confirmed by the bank"
                  decisions={[
                    { name: "outcome", value: "NETWORK_CANCELLATION_SUCCESS", label: "Recalled (cancel, refund)" },
                    { name: "outcome", value: "NETWORK_ALREADY_PAID", label: "Already paid" },
                    { name: "outcome", value: "NETWORK_IN_PROGRESS_RETRY_ALLOWED", label: "Not yet, retry later" },
                  ]}
                />
              </li>
            ))}
          </ul>
        </Card>
      )}
      {rejected.length > 0 && (
        <Card title="Payouts rejected by the bank: repair or refund">
          <p className="mb-2 text-sm text-slate-600">
            The bank refused the beneficiary&apos;s account. Record the new destination the beneficiary gave (it goes into the next file), or refund the
            customer. The customer&apos;s app can also supply one (POST /v1/core/transfers/&#123;transferId&#125;/payout-repair).
          </p>
          <ul className="space-y-3">
            {rejected.map((r) => (
              <li key={r.transferId} className="text-sm" data-testid="payout-repair">
                <div className="mb-1">
                  <Link className="text-blue-700 underline" href={`/console/transfers/${r.transferId}`}>
                    {r.transferId}
                  </Link>{" "}
                  · attempt {r.attempt} · {payoutRejection(r.reasonCode).description} ({r.reasonCode ?? "no code"}) · since {r.since?.toISOString()}
                </div>
                <form action={repairPayoutAction} className="mb-1 flex flex-wrap items-center gap-2">
                  <input type="hidden" name="transferId" value={r.transferId} />
                  <input type="hidden" name="back" value={BACK} />
                  <input type="hidden" name="methodType" value={r.methodType ?? "BANK_TRANSFER"} />
                  <label>
                    New account <input name="destinationIdentifier" required className={input} aria-label="New destination" />
                  </label>
                  <label>
                    Reason <input name="reason" required minLength={3} className={input} placeholder="Beneficiary gave a new account" />
                  </label>
                  <button className={primary}>Repair and resend</button>
                </form>
                <form action={refundRejectedPayoutAction} className="flex flex-wrap items-center gap-2">
                  <input type="hidden" name="transferId" value={r.transferId} />
                  <input type="hidden" name="back" value={BACK} />
                  <label>
                    Reason <input name="reason" required minLength={3} className={input} placeholder="No valid account" />
                  </label>
                  <button className={danger}>Refund instead</button>
                </form>
              </li>
            ))}
          </ul>
        </Card>
      )}
      {returned.length > 0 && (
        <Card title="Paid payouts returned by the beneficiary's bank: refund">
          <p className="mb-2 text-sm text-slate-600">
            The provider paid, then the beneficiary&apos;s bank sent the money back to its prefunding. It is held for the customer until refunded.
          </p>
          <ul className="space-y-3">
            {returned.map((r) => (
              <li key={r.attemptId} className="text-sm" data-testid="returned-payout">
                <div className="mb-1">
                  <Link className="text-blue-700 underline" href={`/console/transfers/${r.transferId}`}>
                    {r.transferId}
                  </Link>{" "}
                  · {r.provider} · {r.amount} {r.currency} · {r.reasonCode === "RETURNED" ? "no reason given" : payoutRejection(r.reasonCode).description} (
                  {r.reasonCode}) · since {r.since.toISOString()}
                </div>
                <form action={refundReturnedPayoutAction} className="flex flex-wrap items-center gap-2">
                  <input type="hidden" name="transferId" value={r.transferId} />
                  <input type="hidden" name="back" value={BACK} />
                  <label>
                    Reason <input name="reason" required minLength={3} className={input} placeholder="Account closed, customer informed" />
                  </label>
                  <button className={danger}>Refund the customer</button>
                </form>
              </li>
            ))}
          </ul>
        </Card>
      )}
      {items.length === 0 ? <Empty>No payout file yet.</Empty> : null}
      {items.length > 0 && (
        <table className="w-full border-collapse bg-white text-sm">
          <thead>
            <tr className="border-b text-left">
              <th className="p-2">File</th>
              <th className="p-2">Bank</th>
              <th className="p-2">Currency</th>
              <th className="p-2 text-right">Transfers</th>
              <th className="p-2 text-right">Sum</th>
              <th className="p-2">Created</th>
              <th className="p-2">Transfer states</th>
            </tr>
          </thead>
          <tbody>
            {items.map((f) => (
              <tr key={f.id} className="border-b align-top" data-testid="payout-file">
                <td className="p-2">
                  <Link className="text-blue-700 underline" href={`/console/payout-files/${f.id}/xml`} prefetch={false}>
                    {f.fileName}
                  </Link>
                  {f.partnerId && <div className="text-xs text-slate-500">sandbox · {f.partnerId}</div>}
                  {f.writtenAt && <div className="text-xs text-slate-500">outbox {f.writtenAt.toISOString()}</div>}
                </td>
                <td className="p-2">{f.bankName}</td>
                <td className="p-2">{f.currency}</td>
                <td className="p-2 text-right">{f.transactionCount}</td>
                <td className="p-2 text-right font-mono">{f.controlSum}</td>
                <td className="p-2">{f.createdAt.toISOString()}</td>
                <td className="p-2">
                  {Object.entries(f.states).map(([state, n]) => (
                    <span key={state} className="mr-1">
                      <Badge>
                        {state} {n}
                      </Badge>
                    </span>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager path={BACK} page={page} hasMore={hasMore} />
    </>
  );
}
