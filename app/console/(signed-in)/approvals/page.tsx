import Link from "next/link";
import { Empty, Flash, PageTitle, Pager, param, type SearchParams } from "@/components/console/ui";
import { clock } from "@/lib/platform/clock";
import { pageParam } from "@/lib/operations/console/page-param";
import { requireOperator } from "@/lib/operations/console/session";
import { proposalQueue } from "@/lib/operations/dual-control/queries";
import { ready } from "@/lib/platform/ready";
import { ProposalCard } from "./proposal-card";

export const metadata = { title: "Approvals · Console" };

export default async function Approvals({ searchParams }: { searchParams: SearchParams }) {
  const operator = await requireOperator();
  const sp = await searchParams;
  const page = pageParam(param(sp, "page"));
  const decided = param(sp, "view") === "decided";
  const { items, hasMore } = await proposalQueue(await ready(), decided ? "decided" : "waiting", page, clock.now());
  return (
    <>
      <PageTitle sub="Actions under dual control: one operator proposes, a different one approves (the action runs then) or declines. Undecided proposals lapse after 30 days.">
        Approvals
      </PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      <p className="mb-4 text-sm">
        <Link className="text-blue-700 underline" href={decided ? "/console/approvals" : "/console/approvals?view=decided"}>
          {decided ? "Waiting proposals" : "Decided proposals"}
        </Link>
      </p>
      {items.length === 0 ? <Empty>{decided ? "No proposal decided yet." : "No proposal waits for approval."}</Empty> : null}
      {items.map((p) => (
        <ProposalCard key={p.id} p={p} waiting={!decided}>
          {!decided ? (
            <p className="mt-3 text-sm">
              {p.proposedBy === operator.id ? "You proposed this: another operator approves it. " : null}
              <Link className="text-blue-700 underline" href={`/console/approvals/${p.id}`}>
                Approve or decline {p.id}
              </Link>
            </p>
          ) : null}
        </ProposalCard>
      ))}
      <Pager path="/console/approvals" page={page} hasMore={hasMore} params={decided ? { view: "decided" } : {}} />
    </>
  );
}
