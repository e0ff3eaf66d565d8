import Link from "next/link";
import type { ReactNode } from "react";
import { Badge, Card } from "@/components/console/ui";
import { when } from "@/lib/console/format";
import type { ProposalRow } from "@/lib/dual-control/proposals";

type Item = ProposalRow;

/** The before/after an operator decides on, as compact JSON. */
const json = (v: unknown) => (v && Object.keys(v).length ? JSON.stringify(v) : "—");

/** A proposal as the queue and its own page show it (one still PROPOSED past its 30 days reads LAPSED). */
export function ProposalCard({ p, waiting, children }: { p: Item; waiting: boolean; children?: ReactNode }) {
  return (
    <Card
      title={
        <span className="flex flex-wrap items-center gap-2" data-testid="proposal">
          <Link className="text-blue-700 underline" href={`/console/approvals/${p.id}`}>
            {p.id}
          </Link>{" "}
          {p.summary} <Badge>{waiting ? "PROPOSED" : p.state === "PROPOSED" ? "LAPSED" : p.state}</Badge>
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
      {children}
    </Card>
  );
}
