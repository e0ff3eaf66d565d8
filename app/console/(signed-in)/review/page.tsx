import { TransferCard } from "@/components/console/transfer-card";
import { danger, Empty, Flash, input, PageTitle, Pager, param, primary, type SearchParams } from "@/components/console/ui";
import { transferQueue } from "@/lib/console/queries";
import { ready } from "@/lib/platform/ready";
import { decideReview } from "./actions";

export const metadata = { title: "Review · Console" };

export default async function ReviewQueue({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const page = Math.max(1, Number(param(sp, "page") ?? 1));
  const { items, hasMore } = await transferQueue(await ready(), "onreview", page);
  return (
    <>
      <PageTitle sub="Transfers the fast-check sent to review: approve to validated, or reject.">Review queue</PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      {items.length === 0 ? <Empty>No transfer is waiting for review.</Empty> : null}
      {items.map((item) => (
        <TransferCard key={item.t.id} item={item}>
          <form action={decideReview} className="flex flex-wrap items-center gap-2">
            <input type="hidden" name="transferId" value={item.t.id} />
            <input type="hidden" name="back" value="/console/review" />
            <label className="text-sm">
              Reason <input name="reason" required minLength={3} className={input} placeholder="Source of funds verified" />
            </label>
            <button name="decision" value="APPROVE" className={primary}>Approve</button>
            <button name="decision" value="REJECT" className={danger}>Reject</button>
          </form>
        </TransferCard>
      ))}
      <Pager path="/console/review" page={page} hasMore={hasMore} />
    </>
  );
}
