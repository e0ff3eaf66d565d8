import { TransferCard } from "@/components/console/transfer-card";
import { danger, Empty, Flash, input, PageTitle, Pager, param, primary, type SearchParams } from "@/components/console/ui";
import { transferQueue } from "@/lib/console/queries";
import { ready } from "@/lib/platform/ready";
import { resolveHold } from "./actions";

export const metadata = { title: "Compliance holds · Console" };

export default async function HoldsQueue({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const page = Math.max(1, Number(param(sp, "page") ?? 1));
  const { items, hasMore } = await transferQueue(await ready(), "spended", page);
  return (
    <>
      <PageTitle sub="Transfers held by a compliance event: restore the state they had, or reject.">Compliance holds</PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      {items.length === 0 ? <Empty>No transfer is on hold.</Empty> : null}
      {items.map((item) => (
        <TransferCard key={item.t.id} item={item}>
          <form action={resolveHold} className="flex flex-wrap items-center gap-2">
            <input type="hidden" name="transferId" value={item.t.id} />
            <input type="hidden" name="back" value="/console/holds" />
            <label className="text-sm">
              Reason <input name="reason" required minLength={3} className={input} placeholder="Sanctions alert cleared" />
            </label>
            <button name="resolution" value="RESTORE" className={primary}>Restore</button>
            <button name="resolution" value="REJECT" className={danger}>Reject</button>
          </form>
        </TransferCard>
      ))}
      <Pager path="/console/holds" page={page} hasMore={hasMore} />
    </>
  );
}
