import Link from "next/link";
import type { ReactNode } from "react";
import { Badge, Card } from "@/components/console/ui";
import { when } from "@/lib/operations/console/format";
import type { ProposalRow } from "@/lib/operations/dual-control/proposals";

type Item = ProposalRow;

/** One value of the before/after table: none as a dash, text as is, anything else as compact JSON. */
const shown = (v: unknown) => (v === undefined || v === null ? "—" : typeof v === "string" ? v : JSON.stringify(v));

/**
 * What the proposal changes, key by key: the subject before, and after (as proposed while it
 * waits, as the approved action left it once approved): the approver sees both
 * before deciding (JWKS key ids, URLs, limits...).
 */
function Change({ before, after, afterLabel }: { before: Record<string, unknown>; after: Record<string, unknown>; afterLabel: string }) {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  if (keys.length === 0) return null;
  return (
    <table className="mt-2 w-full text-sm" data-testid="proposal-change">
      <thead>
        <tr className="text-left text-slate-500">
          <th className="p-1">Field</th>
          <th className="p-1">Before</th>
          <th className="p-1">{afterLabel}</th>
        </tr>
      </thead>
      <tbody>
        {keys.map((k) => {
          const changed = shown(before[k]) !== shown(after[k]);
          return (
            <tr key={k} className="border-t align-top" data-testid={`change-${k}`}>
              <td className="p-1 font-mono text-xs">{k}</td>
              <td className="break-all p-1 font-mono text-xs">{shown(before[k])}</td>
              <td className={`break-all p-1 font-mono text-xs ${changed ? "bg-amber-50 font-semibold" : ""}`}>{shown(after[k])}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

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
      <Change
        before={p.before ?? {}}
        after={(p.state === "APPROVED" ? p.after : p.proposed) ?? {}}
        afterLabel={p.state === "APPROVED" ? "After (as approved)" : "After (as proposed)"}
      />
      {children}
    </Card>
  );
}
