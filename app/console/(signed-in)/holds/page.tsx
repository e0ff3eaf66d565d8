import Link from "next/link";
import { TransferCard } from "@/components/console/transfer-card";
import { DecisionForm } from "@/components/console/decision-form";
import { Empty, Flash, PageTitle, Pager, param, type SearchParams } from "@/components/console/ui";
import { holdInfo } from "@/lib/operations/console/holds";
import { pageParam } from "@/lib/operations/console/page-param";
import { transferQueue } from "@/lib/operations/console/queries";
import { ready } from "@/lib/platform/ready";
import { openCasesHolding } from "@/lib/compliance/screening-cases/blocked-money";
import { resolveHold } from "./actions";

export const metadata = { title: "Compliance holds · Console" };

export default async function HoldsQueue({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const page = pageParam(param(sp, "page"));
  const db = await ready();
  const { items, hasMore } = await transferQueue(db, "spended", page);
  const holds = await holdInfo(
    db,
    items.map((i) => i.t.id),
  );
  // A hold a screening case owns is decided on the case, not here.
  const screening = await openCasesHolding(
    db,
    items.map((i) => i.t),
  );
  return (
    <>
      <PageTitle sub="Transfers held by a compliance event: restore the state they had, or reject. A hold for sanctions screening is decided on its screening case.">
        Compliance holds
      </PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      {items.length === 0 ? <Empty>No transfer is on hold.</Empty> : null}
      {items.map((item) => (
        <TransferCard key={item.t.id} item={item} hold={holds.get(item.t.id)}>
          {screening.has(item.t.id) ? (
            <p className="mt-3 text-sm" data-testid="held-by-screening-case">
              Held for sanctions screening: restore or reject it by deciding screening case{" "}
              <Link className="font-mono text-blue-700 underline" href={`/console/screening-cases?case=${screening.get(item.t.id)}`}>
                {screening.get(item.t.id)}
              </Link>
              . Its money moves only through the case.
            </p>
          ) : (
            <DecisionForm
              action={resolveHold}
              hidden={{ transferId: item.t.id }}
              back="/console/holds"
              placeholder="Sanctions alert cleared"
              decisions={[
                { name: "resolution", value: "RESTORE", label: "Restore" },
                { name: "resolution", value: "REJECT", label: "Reject", tone: "danger" },
              ]}
            />
          )}
        </TransferCard>
      ))}
      <Pager path="/console/holds" page={page} hasMore={hasMore} />
    </>
  );
}
