import Link from "next/link";
import { Badge, Card, Empty, Flash, PageTitle, Pager, param, type SearchParams } from "@/components/console/ui";
import { clock } from "@/lib/clock";
import { when } from "@/lib/console/format";
import { pageParam } from "@/lib/console/page-param";
import { requireOperator } from "@/lib/console/session";
import { proposalQueue } from "@/lib/dual-control/queries";
import { ready } from "@/lib/platform/ready";
import { DecideProposalForm } from "./approve-form";

export const metadata = { title: "Approvals · Console" };

type Item = Awaited<ReturnType<typeof proposalQueue>>["items"][number];

/** The before/after an operator decides on, as compact JSON. */
const json = (v: unknown) => (v && Object.keys(v).length ? JSON.stringify(v) : "—");

function ProposalCard({ p, mine, waiting }: { p: Item; mine: boolean; waiting: boolean }) {
  return (
    <Card
      title={
        <span className="flex flex-wrap items-center gap-2" data-testid="proposal">
          <Badge>{p.id}</Badge> {p.summary} <Badge>{waiting ? "PROPOSED" : p.state === "PROPOSED" ? "LAPSED" : p.state}</Badge>
        </span>
      }
    >
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        <div>
          <dt className="inline text-slate-600">Action: </dt>
          <dd className="inline font-mono">{p.action}</dd>
        </div>
        <div>
          <dt className="inline text-slate-600">Proposed by: </dt>
          <dd className="inline">
            {p.proposedByEmail} on {when(p.createdAt)}
          </dd>
        </div>
        <div className="sm:col-span-2">
          <dt className="inline text-slate-600">Reason: </dt>
          <dd className="inline">{p.reason}</dd>
        </div>
        <div className="sm:col-span-2">
          <dt className="inline text-slate-600">Before: </dt>
          <dd className="inline break-all font-mono text-xs">{json(p.before)}</dd>
        </div>
        {p.after ? (
          <div className="sm:col-span-2">
            <dt className="inline text-slate-600">After: </dt>
            <dd className="inline break-all font-mono text-xs">{json(p.after)}</dd>
          </div>
        ) : null}
        {waiting ? (
          <div>
            <dt className="inline text-slate-600">Lapses: </dt>
            <dd className="inline">{when(p.lapsesAt)}</dd>
          </div>
        ) : p.decidedAt ? (
          <div className="sm:col-span-2" data-testid="proposal-decision">
            <dt className="inline text-slate-600">Decided: </dt>
            <dd className="inline">
              {p.state.toLowerCase()} by {p.decidedByEmail} on {when(p.decidedAt)}: {p.decisionReason}
            </dd>
          </div>
        ) : null}
      </dl>
      {waiting ? (
        <div className="mt-3">
          {mine ? <p className="mb-2 text-sm text-slate-600">You proposed this: another operator approves it. You may decline (withdraw) it.</p> : null}
          <DecideProposalForm proposalId={p.id} back="/console/approvals" />
        </div>
      ) : null}
    </Card>
  );
}

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
        <ProposalCard key={p.id} p={p} mine={p.proposedBy === operator.id} waiting={!decided} />
      ))}
      <Pager path="/console/approvals" page={page} hasMore={hasMore} params={decided ? { view: "decided" } : {}} />
    </>
  );
}
