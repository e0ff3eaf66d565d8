import Link from "next/link";
import { DecisionForm } from "@/components/console/decision-form";
import { ScreeningEvidence } from "@/components/console/screening-evidence";
import { Badge, Card, CustomerLabel, Empty, Flash, PageTitle, Pager, param, type SearchParams } from "@/components/console/ui";
import { customerName } from "@/lib/operations/console/format";
import { pageParam } from "@/lib/operations/console/page-param";
import { beneficiaryQueue } from "@/lib/operations/console/queries";
import { ready } from "@/lib/platform/ready";
import { latestScreening } from "@/lib/compliance/screening/results";
import { decideBeneficiary } from "./actions";

export const metadata = { title: "Screening · Console" };

export default async function BeneficiaryQueue({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const page = pageParam(param(sp, "page"));
  const db = await ready();
  const { items, hasMore } = await beneficiaryQueue(db, page);
  const screenings = new Map(await Promise.all(items.map(async ({ b }) => [b.id, await latestScreening(db, "beneficiary", b.id)] as const)));
  return (
    <>
      <PageTitle
        sub={
          <>
            Beneficiaries pending screening or blocked: decide VALID, MONITORED or BLOCKED. Close matches wait in{" "}
            <Link className="text-blue-700 underline" href="/console/screening-cases">
              screening cases
            </Link>
            .
          </>
        }
      >
        Beneficiary screening
      </PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      {items.length === 0 ? <Empty>No beneficiary needs a decision.</Empty> : null}
      {items.map(({ b, customerId, customerProfile }) => (
        <Card
          key={b.id}
          title={
            <span className="flex flex-wrap items-center gap-2">
              <Badge>{b.id}</Badge> {b.firstName} {b.lastName} <Badge>{b.state}</Badge>
            </span>
          }
        >
          <p className="text-sm text-slate-700">
            Resident in {b.countryOfResidence}
            {b.nationality ? `, ${b.nationality} national` : ""}
            {b.dateOfBirth ? `, born ${b.dateOfBirth}` : ""} · {b.relationshipToCustomer} of{" "}
            <CustomerLabel name={customerName(customerProfile)} id={customerId} /> · screening result {b.screeningResult ?? "pending"}
          </p>
          <div className="mt-2">
            <ScreeningEvidence screening={screenings.get(b.id)} />
          </div>
          <div className="mt-3">
            <DecisionForm
              action={decideBeneficiary}
              hidden={{ beneficiaryId: b.id, expected: b.state }}
              back="/console/beneficiaries"
              placeholder="False positive: different date of birth"
              decisions={[
                { name: "decision", value: "VALID", label: "Valid" },
                { name: "decision", value: "MONITORED", label: "Monitored" },
                { name: "decision", value: "BLOCKED", label: "Blocked", tone: "danger" },
              ]}
            />
          </div>
        </Card>
      ))}
      <Pager path="/console/beneficiaries" page={page} hasMore={hasMore} />
    </>
  );
}
