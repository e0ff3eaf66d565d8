import { Badge, Card, danger, Empty, Flash, input, PageTitle, Pager, param, primary, type SearchParams } from "@/components/console/ui";
import { beneficiaryQueue } from "@/lib/console/queries";
import { ready } from "@/lib/platform/ready";
import { decideBeneficiary } from "./actions";

export const metadata = { title: "Screening · Console" };

export default async function BeneficiaryQueue({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const page = Math.max(1, Number(param(sp, "page") ?? 1));
  const { items, hasMore } = await beneficiaryQueue(await ready(), page);
  return (
    <>
      <PageTitle sub="Beneficiaries pending screening or blocked: decide VALID, MONITORED or BLOCKED.">Beneficiary screening</PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      {items.length === 0 ? <Empty>No beneficiary needs a decision.</Empty> : null}
      {items.map(({ b, subscriptionId }) => (
        <Card key={b.id} title={<span className="flex flex-wrap items-center gap-2"><Badge>{b.id}</Badge> {b.firstName} {b.lastName} <Badge>{b.state}</Badge></span>}>
          <p className="text-sm text-slate-700">
            Resident in {b.countryOfResidence}
            {b.nationality ? `, ${b.nationality} national` : ""}
            {b.dateOfBirth ? `, born ${b.dateOfBirth}` : ""} · {b.relationshipToCustomer} of {subscriptionId} · screening result {b.screeningResult ?? "pending"}
          </p>
          <form action={decideBeneficiary} className="mt-3 flex flex-wrap items-center gap-2">
            <input type="hidden" name="beneficiaryId" value={b.id} />
            <input type="hidden" name="expected" value={b.state} />
            <input type="hidden" name="back" value="/console/beneficiaries" />
            <label className="text-sm">
              Reason <input name="reason" required minLength={3} className={input} placeholder="False positive: different date of birth" />
            </label>
            <button name="decision" value="VALID" className={primary}>Valid</button>
            <button name="decision" value="MONITORED" className={primary}>Monitored</button>
            <button name="decision" value="BLOCKED" className={danger}>Blocked</button>
          </form>
        </Card>
      ))}
      <Pager path="/console/beneficiaries" page={page} hasMore={hasMore} />
    </>
  );
}
