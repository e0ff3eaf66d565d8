import Link from "next/link";
import { DecisionForm } from "@/components/console/decision-form";
import { ScreeningEvidence } from "@/components/console/screening-evidence";
import { Badge, Card, CustomerLabel, danger, Empty, Flash, input, PageTitle, Pager, param, type SearchParams } from "@/components/console/ui";
import { customerName, money, when } from "@/lib/operations/console/format";
import { pageParam } from "@/lib/operations/console/page-param";
import { ready } from "@/lib/platform/ready";
import { fromMinor } from "@/lib/finance/ledger";
import { blockedMoneyOf, type BlockedMoney } from "@/lib/compliance/screening-cases/blocked-money";
import { caseQueue } from "@/lib/compliance/screening-cases/queries";
import { caseOfCustomers } from "@/lib/compliance/cases/queries";
import { decideScreeningCase, releaseBlockedUnderLicence } from "./actions";

export const metadata = { title: "Screening cases · Console" };

type Item = Awaited<ReturnType<typeof caseQueue>>["items"][number];

/** The case's evidence in the shape of a stored screening (list, entry, version, what agreed). */
function evidenceOf(c: Item["c"]) {
  const listVersions = Object.fromEntries(c.entries.map((e) => [e.list, e.listVersionId ?? "unversioned"]));
  return { id: c.id, subjectType: c.subjectType, subjectId: c.subjectId, result: "CLOSE_MATCH", listVersions, evidence: c.evidence, createdAt: c.createdAt };
}

/** A transfer's money in blocked:sanctions, its releases, and (on a confirmed case) the release under licence. */
function BlockedMoneyLine({ caseId, transferId, blocked, back }: { caseId: string; transferId: string; blocked: BlockedMoney; back: string }) {
  return (
    <div className="mt-1 ml-4" data-testid="blocked-money">
      {blocked.blockedMinor > 0n ? <>Blocked: {money(fromMinor(blocked.blockedMinor, blocked.currency), blocked.currency)}</> : <>Nothing blocked now</>}
      {blocked.releases.map((r) => (
        <span key={r.at.toISOString()}>
          {" "}
          · released under licence {r.reference} on {when(r.at)}
        </span>
      ))}
      {blocked.blockedMinor > 0n ? (
        <form action={releaseBlockedUnderLicence} className="mt-1 flex flex-wrap items-center gap-2">
          <input type="hidden" name="caseId" value={caseId} />
          <input type="hidden" name="transferId" value={transferId} />
          <input type="hidden" name="back" value={back} />
          <label className="text-sm">
            Licence or authority reference{" "}
            <input name="licenceReference" required minLength={3} maxLength={140} className={input} placeholder="OFAC licence SDGT-2026-123456" />
          </label>
          <label className="text-sm">
            Reason <input name="reason" required minLength={3} className={input} placeholder="Licence authorises return to the remitter" />
          </label>
          <button className={danger}>Release under licence</button>
        </form>
      ) : null}
    </div>
  );
}

function CaseCard({
  item,
  complianceCase,
  blocked,
  back,
}: {
  item: Item;
  complianceCase?: { id: string; state: string };
  blocked: Map<string, BlockedMoney>;
  back: string;
}) {
  const { c } = item;
  const open = c.state === "OPEN";
  const subject = c.subjectType === "beneficiary" ? `${item.benFirst} ${item.benLast}` : (customerName(item.customerProfile) ?? c.subjectId);
  return (
    <Card
      title={
        <span className="flex flex-wrap items-center gap-2">
          <Badge>{c.id}</Badge> {subject} <Badge>{c.state}</Badge>
        </span>
      }
    >
      <p className="text-sm text-slate-700">
        {c.subjectType === "beneficiary" ? (
          <>
            Beneficiary <span className="font-mono">{c.subjectId}</span> ({item.benState}) of{" "}
          </>
        ) : (
          <>Customer ({item.customerStatus}) </>
        )}
        <CustomerLabel name={customerName(item.customerProfile)} id={c.customerId} /> · opened {when(c.createdAt)}
        {complianceCase ? (
          <>
            {" "}
            · case{" "}
            <Link className="font-mono text-blue-700 underline" href={`/console/cases/${complianceCase.id}`} data-testid="screening-compliance-case">
              {complianceCase.id}
            </Link>{" "}
            ({complianceCase.state})
          </>
        ) : null}
      </p>
      <div className="mt-2">
        <ScreeningEvidence screening={evidenceOf(c)} />
      </div>
      {item.transfers.length > 0 ? (
        <ul className="mt-2 text-sm" data-testid="case-transfers">
          {item.transfers.map((t) => (
            <li key={t.id}>
              <Link className="font-mono text-blue-700 underline" href={`/console/transfers/${t.id}`}>
                {t.id}
              </Link>{" "}
              <Badge>{t.state}</Badge> {money(t.originAmount, t.originCurrency)}
              {c.heldTransferIds.includes(t.id) ? " · held by this case" : ""}
              {c.state === "TRUE_MATCH" && blocked.has(t.id) ? (
                <BlockedMoneyLine caseId={c.id} transferId={t.id} blocked={blocked.get(t.id)!} back={back} />
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {open ? (
        <div className="mt-3">
          <DecisionForm
            action={decideScreeningCase}
            hidden={{ caseId: c.id }}
            back={back}
            placeholder="Different date of birth and nationality"
            decisions={[
              { name: "decision", value: "FALSE_POSITIVE", label: "False positive" },
              { name: "decision", value: "TRUE_MATCH", label: "True match", tone: "danger" },
            ]}
          />
        </div>
      ) : (
        <p className="mt-2 text-sm" data-testid="case-decision">
          Decided {c.state === "TRUE_MATCH" ? "true match" : "false positive"} by {c.decidedByEmail} on {when(c.decidedAt)}: {c.decisionReason}
          {c.blockingReportDueOn ? <strong className="ml-1">· Blocking report due {c.blockingReportDueOn}</strong> : null}
        </p>
      )}
    </Card>
  );
}

export default async function ScreeningCases({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const page = pageParam(param(sp, "page"));
  const decided = param(sp, "view") === "decided";
  // One case, as a link names it (the Holds queue's).
  const one = param(sp, "case");
  const db = await ready();
  const { items, hasMore } = await caseQueue(db, one ? { caseId: one } : decided ? "decided" : "open", page);
  const complianceCases = await caseOfCustomers(
    db,
    items.map((i) => i.c.customerId),
  );
  const blocked = await blockedMoneyOf(
    db,
    items.flatMap((i) => i.transfers.map((t) => t.id)),
  );
  const back = "/console/screening-cases"; // a form's answer returns to the queue (consoleAction keeps no query)
  return (
    <>
      <PageTitle sub="Close matches: transfers to the subject stop until you decide. A false positive restores them; a true match blocks the subject and its funds, which leave only by a release under licence approved by a second operator.">
        Screening cases
      </PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      <p className="mb-4 text-sm">
        {decided || one ? (
          <Link className="text-blue-700 underline" href="/console/screening-cases">
            Open cases
          </Link>
        ) : (
          <Link className="text-blue-700 underline" href="/console/screening-cases?view=decided">
            Decided cases
          </Link>
        )}
      </p>
      {items.length === 0 ? <Empty>{one ? `No screening case ${one}.` : decided ? "No case decided yet." : "No open screening case."}</Empty> : null}
      {items.map((item) => (
        <CaseCard key={item.c.id} item={item} complianceCase={complianceCases.get(item.c.customerId)} blocked={blocked} back={back} />
      ))}
      <Pager path="/console/screening-cases" page={page} hasMore={hasMore} params={decided ? { view: "decided" } : {}} />
    </>
  );
}
