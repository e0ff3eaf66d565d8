import Link from "next/link";
import { notFound } from "next/navigation";
import { DecisionForm } from "@/components/console/decision-form";
import { RiskRatingCard } from "@/components/console/risk-rating";
import { Badge, Card, CustomerLabel, Empty, Flash, PageTitle, danger, input, param, primary, type SearchParams } from "@/components/console/ui";
import { caseDetail } from "@/lib/compliance/cases/queries";
import { reportAuthors } from "@/lib/compliance/cases/reports";
import { ALERT_KIND_LABELS, RISK_FLAGS } from "@/lib/compliance/cases/state-machine";
import { customerName, money, when } from "@/lib/operations/console/format";
import { requireOperator } from "@/lib/operations/console/session";
import { ready } from "@/lib/platform/ready";
import { ratingOfCustomer } from "@/lib/compliance/risk-rating/queries";
import { openCasesHolding } from "@/lib/compliance/screening-cases/blocked-money";
import { overrideRating, recomputeRating } from "../../customers/actions";
import { resolveHold } from "../../holds/actions";
import { decideReview } from "../../review/actions";
import {
  addCaseNote,
  approveSuspiciousActivityReport,
  assignCaseTo,
  closeComplianceCase,
  fileSuspiciousActivityReport,
  flagCustomerRisk,
  linkTransferToCase,
  rewriteReport,
  startInvestigation,
  takeCase,
} from "../actions";

export const metadata = { title: "Case · Console" };

/**
 * One compliance case: its timeline (alerts and notes), the transfers and beneficiaries
 * it links (a transfer waiting for review or on hold is resolved here with the Review and Holds
 * pages' own actions), take/assign, investigate, close with an outcome and narrative, and the
 * suspicious-activity report a risk-confirmed case drafts.
 */
export default async function CasePage({ params, searchParams }: { params: Promise<{ caseId: string }>; searchParams: SearchParams }) {
  const operator = await requireOperator();
  const { caseId } = await params;
  const sp = await searchParams;
  const db = await ready();
  const d = await caseDetail(db, caseId);
  if (!d) notFound();
  const { c, report } = d;
  // A transfer held for sanctions screening is decided on its screening case (the server refuses
  // Restore and Reject for it): the page links to that case instead.
  const heldByScreening = await openCasesHolding(
    db,
    d.linkedTransfers.filter((t) => t.state === "spended"),
  );
  const back = `/console/cases/${c.id}`;
  const rating = await ratingOfCustomer(db, c.customerId);
  const hidden = (extra: Record<string, string> = {}) => (
    <>
      <input type="hidden" name="caseId" value={c.id} />
      <input type="hidden" name="back" value={back} />
      {Object.entries(extra).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
    </>
  );
  const timeline = [
    ...d.alerts.map((a) => ({ at: a.raisedAt, key: a.id, node: <AlertLine a={a} /> })),
    ...d.notes.map((n) => ({
      at: n.createdAt,
      key: n.id,
      node: (
        <span data-testid="case-note">
          <Badge>Note</Badge> {n.authorEmail}: {n.body}
        </span>
      ),
    })),
  ].sort((x, y) => x.at.getTime() - y.at.getTime());
  const open = c.state !== "CLOSED";
  return (
    <>
      <PageTitle
        sub={
          <CustomerLabel
            name={customerName(d.customer.profile)}
            id={c.customerId}
            href={d.subscriptionId ? `/console/customers/${d.subscriptionId}` : undefined}
          />
        }
      >
        Case {c.id}
      </PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      <Card>
        <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="case-summary">
          <Badge>{c.state}</Badge>
          {c.outcome ? <Badge>{c.outcome}</Badge> : null}
          <span>Customer {d.customer.status}</span>· detected {when(c.detectedAt)} · due {c.dueOn} ·{" "}
          <span data-testid="case-assignee">{c.assigneeEmail ? `assigned to ${c.assigneeEmail}` : "unassigned"}</span>
        </p>
        {open ? (
          <div className="mt-3 flex flex-wrap items-center gap-2">
            <form action={takeCase}>
              {hidden()}
              <button className={primary}>Take</button>
            </form>
            <form action={assignCaseTo} className="flex items-center gap-2">
              {hidden()}
              <input name="email" type="email" required placeholder="analyst@example.com" className={input} aria-label="Assign to" />
              <button className={primary}>Assign</button>
            </form>
            {c.state === "OPEN" ? (
              <form action={startInvestigation}>
                {hidden()}
                <button className={primary}>Investigate</button>
              </form>
            ) : null}
          </div>
        ) : (
          <p className="mt-2 text-sm" data-testid="case-closed">
            Closed {c.outcome === "RISK_CONFIRMED" ? "as risk confirmed" : "as a false positive"} by {c.closedByEmail} on {when(c.closedAt)}: {c.narrative}
          </p>
        )}
      </Card>

      <RiskRatingCard view={rating} customerId={c.customerId} back={back} override={overrideRating} recompute={recomputeRating} />

      <Card title="Timeline">
        {timeline.length === 0 ? <Empty>Nothing yet.</Empty> : null}
        <ol className="space-y-1 text-sm" data-testid="case-timeline">
          {timeline.map((e) => (
            <li key={e.key}>
              <span className="text-slate-500">{when(e.at)}</span> {e.node}
            </li>
          ))}
        </ol>
        <form action={addCaseNote} className="mt-3 flex flex-wrap items-center gap-2">
          {hidden()}
          <input name="body" required minLength={3} className={`${input} flex-1`} placeholder="What you checked, what you found" aria-label="Note" />
          <button className={primary}>Add note</button>
        </form>
      </Card>

      <Card title="Linked transfers">
        {d.linkedTransfers.length === 0 ? <Empty>No transfer linked.</Empty> : null}
        <ul className="space-y-2 text-sm" data-testid="case-transfers">
          {d.linkedTransfers.map((t) => (
            <li key={t.id}>
              <Link className="font-mono text-blue-700 underline" href={`/console/transfers/${t.id}`}>
                {t.id}
              </Link>{" "}
              <Badge>{t.state}</Badge> {money(t.originAmount, t.originCurrency)} · {when(t.createdAt)}
              {t.state === "onreview" ? (
                <div className="mt-1">
                  <DecisionForm
                    action={decideReview}
                    hidden={{ transferId: t.id }}
                    back={back}
                    placeholder="Source of funds verified"
                    decisions={[
                      { name: "decision", value: "APPROVE", label: "Approve" },
                      { name: "decision", value: "REJECT", label: "Reject", tone: "danger" },
                    ]}
                  />
                </div>
              ) : null}
              {t.state === "spended" && heldByScreening.has(t.id) ? (
                <p className="mt-1" data-testid="held-by-screening-case">
                  Held for sanctions screening: decided on screening case{" "}
                  <Link className="font-mono text-blue-700 underline" href={`/console/screening-cases?case=${heldByScreening.get(t.id)}`}>
                    {heldByScreening.get(t.id)}
                  </Link>
                  . Its money moves only through the case.
                </p>
              ) : null}
              {t.state === "spended" && !heldByScreening.has(t.id) ? (
                <div className="mt-1">
                  <DecisionForm
                    action={resolveHold}
                    hidden={{ transferId: t.id }}
                    back={back}
                    placeholder="Alert cleared"
                    decisions={[
                      { name: "resolution", value: "RESTORE", label: "Restore" },
                      { name: "resolution", value: "REJECT", label: "Reject", tone: "danger" },
                    ]}
                  />
                </div>
              ) : null}
            </li>
          ))}
        </ul>
        {open ? (
          <form action={linkTransferToCase} className="mt-3 flex flex-wrap items-center gap-2">
            {hidden()}
            <select name="transferId" required className={input} aria-label="Transfer to link">
              {d.customerTransfers
                .filter((t) => !d.linkedTransfers.some((l) => l.id === t.id))
                .map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.id} · {t.state} · {money(t.originAmount, t.originCurrency)}
                  </option>
                ))}
            </select>
            <input name="reason" required minLength={3} className={input} placeholder="Why it belongs here" aria-label="Link reason" />
            <button className={primary}>Link transfer</button>
          </form>
        ) : null}
        {d.linkedBeneficiaries.length > 0 ? (
          <p className="mt-3 text-sm" data-testid="case-beneficiaries">
            Beneficiaries:{" "}
            {d.linkedBeneficiaries.map((b) => (
              <span key={b.id} className="mr-3">
                {b.firstName} {b.lastName} <span className="font-mono text-xs">{b.id}</span> <Badge>{b.state}</Badge>
              </span>
            ))}
          </p>
        ) : null}
      </Card>

      <Card title="Risk flags">
        <form action={flagCustomerRisk} className="flex flex-wrap items-center gap-2">
          {hidden()}
          <select name="flag" className={input} aria-label="Risk flag">
            {RISK_FLAGS.map((f) => (
              <option key={f}>{f}</option>
            ))}
          </select>
          <button className={primary}>Flag the customer</button>
        </form>
      </Card>

      {c.state === "INVESTIGATING" ? (
        <Card title="Close">
          <form action={closeComplianceCase} className="space-y-2">
            {hidden()}
            <textarea
              name="narrative"
              required
              minLength={3}
              rows={4}
              className={`${input} w-full`}
              placeholder="What happened, why it is or is not suspicious"
              aria-label="Narrative"
            />
            <div className="flex gap-2">
              <button name="outcome" value="FALSE_POSITIVE" className={primary}>
                Close: false positive
              </button>
              <button name="outcome" value="RISK_CONFIRMED" className={danger}>
                Close: risk confirmed
              </button>
            </div>
          </form>
        </Card>
      ) : null}

      {report ? (
        <Card title={`Suspicious-activity report ${report.id}`}>
          <div data-testid="case-report" className="space-y-2 text-sm">
            <p className="flex flex-wrap items-center gap-2">
              <Badge>{report.status}</Badge> due {report.dueOn} · detected {when(report.detectedAt)} · activity {when(report.activityFrom)} –{" "}
              {when(report.activityTo)}
              {report.authorityReference ? <span>· reference {report.authorityReference}</span> : null}
            </p>
            <p>
              Amounts: {report.amounts.map((a) => `${money(a.total, a.currency)} (${a.transfers})`).join(", ") || "none"} · typologies:{" "}
              {report.typologies.join(", ")}
            </p>
            <p>
              <a className="text-blue-700 underline" href={`${back}/report?format=json`}>
                Export JSON
              </a>{" "}
              ·{" "}
              <a className="text-blue-700 underline" href={`${back}/report?format=csv`}>
                Export CSV
              </a>
            </p>
            {report.status === "DRAFTED" ? (
              <>
                <form action={rewriteReport} className="space-y-2">
                  <input type="hidden" name="reportId" value={report.id} />
                  <input type="hidden" name="back" value={back} />
                  <textarea
                    name="narrative"
                    required
                    minLength={3}
                    rows={6}
                    defaultValue={report.narrative}
                    className={`${input} w-full`}
                    aria-label="Report narrative"
                  />
                  <button className={primary}>Save report</button>
                </form>
                {/* Four eyes: a second analyst, none of its authors, approves it before it is filed (the server refuses an author). */}
                <p data-testid="report-authors">Written by {reportAuthors(report).join(", ")}. A second analyst approves it before it is filed.</p>
                {reportAuthors(report).some((a) => a.toLowerCase() === operator.email.toLowerCase()) ? (
                  <p className="text-slate-600">You wrote this report: another analyst approves it.</p>
                ) : (
                  <form action={approveSuspiciousActivityReport}>
                    <input type="hidden" name="reportId" value={report.id} />
                    <input type="hidden" name="back" value={back} />
                    <button className={primary}>Approve report</button>
                  </form>
                )}
              </>
            ) : (
              <>
                <p className="whitespace-pre-wrap">{report.narrative}</p>
                <p data-testid="report-approval">
                  Written by {reportAuthors(report).join(", ")};{" "}
                  {report.approvedByEmail ? (
                    <>
                      approved by {report.approvedByEmail} · {when(report.approvedAt)}
                    </>
                  ) : (
                    "filed before reports needed a second analyst's approval"
                  )}
                </p>
              </>
            )}
            {report.status === "APPROVED" ? (
              <form action={fileSuspiciousActivityReport} className="flex flex-wrap items-center gap-2">
                <input type="hidden" name="reportId" value={report.id} />
                <input type="hidden" name="back" value={back} />
                <input name="authorityReference" required minLength={3} className={input} placeholder="BSA ID" aria-label="Authority reference" />
                <button className={primary}>Record as filed</button>
              </form>
            ) : null}
          </div>
        </Card>
      ) : null}
    </>
  );
}

function AlertLine({ a }: { a: NonNullable<Awaited<ReturnType<typeof caseDetail>>>["alerts"][number] }) {
  return (
    <span data-testid="case-alert">
      <Badge>{ALERT_KIND_LABELS[a.kind]}</Badge>
      {a.shadow ? <Badge>shadow</Badge> : null} {a.summary}
      {a.transferId ? (
        <>
          {" "}
          ·{" "}
          <Link className="font-mono text-blue-700 underline" href={`/console/transfers/${a.transferId}`}>
            {a.transferId}
          </Link>
        </>
      ) : null}
      {a.screeningCaseId ? <> · screening case {a.screeningCaseId}</> : null}
      {a.evaluationId ? <> · evaluation {a.evaluationId}</> : null} · {a.raisedBy}
    </span>
  );
}
