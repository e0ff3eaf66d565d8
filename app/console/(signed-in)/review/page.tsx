import { TransferCard } from "@/components/console/transfer-card";
import { DecisionForm } from "@/components/console/decision-form";
import { Empty, Flash, PageTitle, Pager, param, type SearchParams } from "@/components/console/ui";
import { pageParam } from "@/lib/operations/console/page-param";
import { transferQueue } from "@/lib/operations/console/queries";
import { ready } from "@/lib/platform/ready";
import { decideReview } from "./actions";

export const metadata = { title: "Review · Console" };

export default async function ReviewQueue({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const page = pageParam(param(sp, "page"));
  const { items, hasMore } = await transferQueue(await ready(), "onreview", page);
  return (
    <>
      <PageTitle sub="Transfers the fast-check sent to review: approve to validated, or reject.">Review queue</PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      {items.length === 0 ? <Empty>No transfer is waiting for review.</Empty> : null}
      {items.map((item) => (
        <TransferCard key={item.t.id} item={item}>
          <DecisionForm
            action={decideReview}
            hidden={{ transferId: item.t.id }}
            back="/console/review"
            placeholder="Source of funds verified"
            decisions={[
              { name: "decision", value: "APPROVE", label: "Approve" },
              { name: "decision", value: "REJECT", label: "Reject", tone: "danger" },
            ]}
          />
        </TransferCard>
      ))}
      <Pager path="/console/review" page={page} hasMore={hasMore} />
    </>
  );
}
