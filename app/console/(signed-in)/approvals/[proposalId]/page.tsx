import Link from "next/link";
import { Empty, Flash, PageTitle, param, type SearchParams } from "@/components/console/ui";
import { clock } from "@/lib/platform/clock";
import { requireOperator } from "@/lib/operations/console/session";
import { proposalById } from "@/lib/operations/dual-control/queries";
import { ready } from "@/lib/platform/ready";
import { DecideProposalForm, RevealSecretForm } from "../approve-form";
import { ProposalCard } from "../proposal-card";

export const metadata = { title: "Proposal · Console" };

/**
 * One proposal and its decision. The form stays mounted after the decision (it only loses its
 * fields), so its notice survives the page's refresh. Once approved, its proposer may reveal what
 * it created (a new partner key, a first webhook secret) once, here.
 */
export default async function Proposal({ params, searchParams }: { params: Promise<{ proposalId: string }>; searchParams: SearchParams }) {
  const operator = await requireOperator();
  const { proposalId } = await params;
  const sp = await searchParams;
  const p = await proposalById(await ready(), proposalId);
  // Like a used reset link: a page that says so (proposals are never deleted: a mistyped id).
  if (!p) return <Empty>No such proposal.</Empty>;
  const waiting = p.state === "PROPOSED" && p.lapsesAt.getTime() > clock.now().getTime();
  return (
    <>
      <PageTitle
        sub={
          <Link className="text-blue-700 underline" href="/console/approvals">
            All proposals
          </Link>
        }
      >
        Proposal {p.id}
      </PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      <ProposalCard p={p} waiting={waiting}>
        <div className="mt-3">
          {waiting && p.proposedBy === operator.id ? (
            <p className="mb-2 text-sm text-slate-600">You proposed this: another operator approves it. You may decline (withdraw) it.</p>
          ) : null}
          <DecideProposalForm proposalId={p.id} back={`/console/approvals/${p.id}`} open={waiting} />
          {/* What the approved action created is the proposer's, once. */}
          {/* Mounted whether or not something is left to reveal, so the revealed value survives the refresh that follows. */}
          {p.state === "APPROVED" && p.proposedBy === operator.id ? (
            <RevealSecretForm proposalId={p.id} back={`/console/approvals/${p.id}`} available={!!p.secretForProposer} />
          ) : null}
        </div>
      </ProposalCard>
    </>
  );
}
