import Link from "next/link";
import { Badge, Card, CustomerLabel, Empty, Flash, input, PageTitle, param, PartnerLabel, primary, type SearchParams } from "@/components/console/ui";
import { claimsQueue } from "@/lib/payments/claims/claims";
import { clock } from "@/lib/platform/clock";
import { customerName, money, when } from "@/lib/operations/console/format";
import { requireOperator } from "@/lib/operations/console/session";
import { transferEssentials } from "@/lib/operations/console/transfer-search";
import { ready } from "@/lib/platform/ready";
import { resolve, startInvestigation } from "./actions";

export const metadata = { title: "Claims · Console" };

// Error claims: unresolved ones by due date (90 days from the report), then the latest resolved.
export default async function Claims({ searchParams }: { searchParams: SearchParams }) {
  await requireOperator("reviewer");
  const sp = await searchParams;
  const db = await ready();
  const { open, resolved } = await claimsQueue(db);
  const transfersOf = await transferEssentials(
    db,
    open.map((c) => c.transferId),
  );
  const now = clock.now();
  const back = "/console/claims";
  return (
    <>
      <PageTitle sub="Customers' error claims, the most urgent first. Resolve each by its due date with an outcome and the notice the customer is sent.">
        Claims
      </PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      {open.length === 0 ? <Empty>No claim is waiting.</Empty> : null}
      {open.map((c) => {
        const t = transfersOf.get(c.transferId);
        return (
          <Card
            key={c.id}
            title={
              <span className="flex flex-wrap items-center gap-2" data-testid={`claim-${c.id}`}>
                <span>{c.id}</span> <Badge>{c.state}</Badge> <Badge>{c.type}</Badge>
                {c.dueBy.getTime() < now.getTime() ? <Badge>OVERDUE</Badge> : null}
                <span className="text-sm text-slate-600">due {when(c.dueBy)}</span>
              </span>
            }
          >
            <p className="mb-2 text-sm text-slate-600">
              Transfer{" "}
              <Link className="text-blue-700 underline" href={`/console/transfers/${c.transferId}`}>
                {c.transferId}
              </Link>{" "}
              · reported {when(c.createdAt)} · “{c.description}”
            </p>
            {t ? (
              <p className="mb-2 text-sm" data-testid={`claim-transfer-${c.id}`}>
                <Badge>{t.state}</Badge> {money(t.originAmount, t.originCurrency)} → {money(t.destinationAmount, t.destinationCurrency)} · total paid{" "}
                {money(t.totalCustomerCost, t.originCurrency)} · sent {when(t.createdAt)} · customer{" "}
                <CustomerLabel name={customerName(t.customerProfile)} id={t.subscriptionId} href={`/console/customers/${t.subscriptionId}`} /> · to{" "}
                {t.beneficiaryFirst} {t.beneficiaryLast} · partner <PartnerLabel name={t.partnerName} id={t.partnerId} />
              </p>
            ) : null}
            {c.state === "OPEN" ? (
              <form action={startInvestigation} className="mb-2">
                <input type="hidden" name="claimId" value={c.id} />
                <input type="hidden" name="back" value={back} />
                <button className={primary}>Start investigation</button>
              </form>
            ) : null}
            <form action={resolve} className="flex flex-wrap items-center gap-2">
              <input type="hidden" name="claimId" value={c.id} />
              <input type="hidden" name="back" value={back} />
              <select name="outcome" className={input} aria-label={`Outcome for ${c.id}`}>
                <option value="NO_ERROR">No error found</option>
                <option value="REFUND">Refund</option>
                <option value="RESEND">Resend</option>
              </select>
              <input name="amount" className={input} placeholder="Refund amount" aria-label={`Refund amount for ${c.id}`} />
              <input name="notice" required minLength={3} className={input} placeholder="Notice to the customer" aria-label={`Notice for ${c.id}`} />
              <button className={primary}>Resolve</button>
            </form>
          </Card>
        );
      })}
      {resolved.length > 0 ? <h2 className="mt-6 font-semibold">Recently resolved</h2> : null}
      {resolved.map((c) => (
        <Card key={c.id}>
          <p className="text-sm" data-testid={`resolved-${c.id}`}>
            {c.id} · {c.outcome}
            {c.resolutionAmount && c.resolutionCurrency ? ` ${money(c.resolutionAmount, c.resolutionCurrency)}` : ""} · {when(c.resolvedAt)} by{" "}
            {c.resolvedByEmail} · {c.resolutionNotice}
          </p>
        </Card>
      ))}
    </>
  );
}
