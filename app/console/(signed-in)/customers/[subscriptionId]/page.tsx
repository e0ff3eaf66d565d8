import Link from "next/link";
import { notFound } from "next/navigation";
import { RiskRatingCard } from "@/components/console/risk-rating";
import { ScreeningEvidence } from "@/components/console/screening-evidence";
import { Badge, Card, danger, Flash, input, PageTitle, param, PartnerLabel, primary, type SearchParams } from "@/components/console/ui";
import { customerName, money, when } from "@/lib/operations/console/format";
import { customerBeneficiaries } from "@/lib/operations/console/customer-view";
import { customerDetail, partnerNames } from "@/lib/operations/console/queries";
import { requireOperator } from "@/lib/operations/console/session";
import { OPERATOR_STATUSES } from "@/lib/identity/customers/status-machine";
import { ready } from "@/lib/platform/ready";
import { latestScreening } from "@/lib/compliance/screening/results";
import { CUSTOMER_FLAG_LABELS, type CustomerFlagKind } from "@/lib/payments/beneficiaries/payment-check";
import { flagsOf } from "@/lib/compliance/screening-cases/queries";
import { complianceOfCustomer } from "@/lib/compliance/cases/queries";
import { customersSharingIdentifiers } from "@/lib/identity/identifiers/shared";
import { ratingOfCustomer } from "@/lib/compliance/risk-rating/queries";
import { HOLDABLE } from "@/lib/payments/transfers/state-machine";
import { placeHold } from "../../holds/actions";
import { approvePepCustomer, clearCustomerRiskFlag, overrideRating, recomputeRating, setCustomerStatus, setRelationship } from "../actions";

export const metadata = { title: "Customer · Console" };

export default async function CustomerPage({ params, searchParams }: { params: Promise<{ subscriptionId: string }>; searchParams: SearchParams }) {
  // Analysts (reviewers) read the customer their cases are about; the status, relationship and
  // hold forms are admin actions (the actions check the role again).
  const operator = await requireOperator("reviewer");
  const admin = operator.role === "admin";
  const { subscriptionId } = await params;
  const sp = await searchParams;
  const db = await ready();
  const detail = await customerDetail(db, subscriptionId);
  if (!detail) notFound();
  const { s, c } = detail;
  const screening = await latestScreening(db, "customer", c.id);
  const pepScreening = await latestScreening(db, "customer-pep", c.id);
  const payees = await customerBeneficiaries(db, s.id);
  const flags = await flagsOf(db, c.id);
  const compliance = await complianceOfCustomer(db, c.id);
  const partnerName = (await partnerNames(db)).get(s.partnerId);
  const sharing = await customersSharingIdentifiers(db, c.id);
  const rating = await ratingOfCustomer(db, c.id);
  const standing = compliance.flags.filter((f) => !f.clearedAt);
  const pep = standing.find((f) => f.flag === "PEP");
  const cleared = compliance.flags.filter((f) => f.clearedAt);
  const back = `/console/customers/${s.id}`;
  return (
    <>
      <PageTitle
        sub={
          <>
            {c.id} · subscription {s.id} · {detail.identifiers.join(", ")} · partner <PartnerLabel name={partnerName} id={s.partnerId} />
          </>
        }
      >
        {customerName(c.profile) ?? "No profile yet"}
      </PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      <Card title="Status">
        <p className="text-sm">
          Customer <Badge>{c.status}</Badge> · KYC <Badge>{c.kycStatus}</Badge> · relationship <Badge>{s.status}</Badge>
          {c.linkedCustomerId ? <> · linked to {c.linkedCustomerId}</> : null}
        </p>
        {admin ? (
          <>
            <form action={setCustomerStatus} className="mt-3 flex flex-wrap items-center gap-2">
              <input type="hidden" name="subscriptionId" value={s.id} />
              <input type="hidden" name="back" value={back} />
              {/* Starts at the current status; one an operator cannot set (PENDING) is shown, not choosable. */}
              <select name="status" aria-label="New status" className={input} defaultValue={c.status}>
                {!(OPERATOR_STATUSES as readonly string[]).includes(c.status) && (
                  <option value={c.status} disabled>
                    {c.status} (current)
                  </option>
                )}
                {OPERATOR_STATUSES.map((st) => (
                  <option key={st}>{st}</option>
                ))}
              </select>
              <select name="remediation" aria-label="Remediation" className={input} defaultValue="">
                <option value="">default remediation</option>
                <option value="complete_kyc">complete_kyc</option>
                <option value="submit_profile_attributes">submit_profile_attributes</option>
                <option value="contact_support">contact_support</option>
              </select>
              <input name="hint" className={input} placeholder="Operational hint (shown to the partner)" aria-label="Operational hint" />
              <input name="reason" required minLength={3} className={input} placeholder="Reason" aria-label="Reason" />
              <button className={primary}>Set status</button>
            </form>
            <form action={setRelationship} className="mt-3 flex flex-wrap items-center gap-2">
              <input type="hidden" name="subscriptionId" value={s.id} />
              <input type="hidden" name="back" value={back} />
              <select name="status" aria-label="Relationship" className={input} defaultValue={s.status}>
                <option value="active">active</option>
                <option value="spended">suspended</option>
                <option value="closed">closed</option>
              </select>
              <input name="reason" required minLength={3} className={input} placeholder="Reason" aria-label="Relationship reason" />
              <button className={primary}>Set relationship</button>
            </form>
          </>
        ) : null}
      </Card>
      <RiskRatingCard view={rating} customerId={c.id} back={back} override={overrideRating} recompute={recomputeRating} />
      {sharing.length > 0 ? (
        // Compared in normal form (lib/identity/identifiers/normal-form.ts): "12 Harbour Rd." is 12 Harbour Road.
        <Card title={`Customers sharing an identifier (${sharing.length})`}>
          <ul className="text-sm" data-testid="customers-sharing">
            {sharing.map((x) => (
              <li key={x.customerId}>
                {x.subscriptionId ? <Link href={`/console/customers/${x.subscriptionId}`}>{x.customerId}</Link> : x.customerId} · {x.shared.join(", ")}
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      {flags.length > 0 ? (
        <Card title={`Flags for review (${flags.length})`}>
          <ul className="text-sm" data-testid="customer-flags">
            {flags.map(({ f, first, last, benState }) => (
              <li key={f.id}>
                {CUSTOMER_FLAG_LABELS[f.kind as CustomerFlagKind] ?? f.kind}: {first} {last}{" "}
                <span className="font-mono text-xs text-slate-500">{f.beneficiaryId}</span> <Badge>{benState}</Badge> · {when(f.createdAt)}
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      <Card title={`Compliance cases (${compliance.cases.length})`}>
        <div className="text-sm" data-testid="customer-risk-flags">
          Risk flags:{" "}
          {standing.length === 0
            ? "none"
            : standing.map((f) => (
                <form key={f.id} action={clearCustomerRiskFlag} className="mt-1 flex flex-wrap items-center gap-2">
                  <input type="hidden" name="subscriptionId" value={s.id} />
                  <input type="hidden" name="flagId" value={f.id} />
                  <input type="hidden" name="back" value={back} />
                  <Badge>{f.flag}</Badge> set by {f.setByEmail} · {when(f.createdAt)}
                  <input name="reason" required minLength={3} className={input} placeholder="Reason" aria-label={`Reason to clear ${f.flag}`} />
                  <button className={danger}>Clear {f.flag}</button>
                </form>
              ))}
        </div>
        {cleared.length > 0 ? (
          <ul className="mt-2 text-sm text-slate-600" data-testid="customer-risk-flag-history">
            {cleared.map((f) => (
              <li key={f.id}>
                <Badge>{f.flag}</Badge> set by {f.setByEmail} · {when(f.createdAt)}; cleared by {f.clearedByEmail} · {when(f.clearedAt)}: {f.clearReason}
              </li>
            ))}
          </ul>
        ) : null}
        <ul className="mt-2 text-sm" data-testid="customer-cases">
          {compliance.cases.map((k) => (
            <li key={k.id}>
              <Link className="font-mono text-blue-700 underline" href={`/console/cases/${k.id}`}>
                {k.id}
              </Link>{" "}
              <Badge>{k.state}</Badge> {k.outcome ? <Badge>{k.outcome}</Badge> : null} opened {when(k.createdAt)} · due {k.dueOn}
            </li>
          ))}
        </ul>
        {compliance.shadow.length > 0 ? (
          <p className="mt-2 text-sm text-slate-600">Shadow alerts outside a case: {compliance.shadow.map((a) => a.summary).join("; ")}</p>
        ) : null}
      </Card>
      <Card title="Sanctions screening">
        <ScreeningEvidence screening={screening} />
      </Card>
      <Card title="PEP screening">
        <ScreeningEvidence screening={pepScreening} />
        {/* The customer's PEP status: the standing PEP flag, what it waits for, and the admin's approval. */}
        <div className="mt-2 text-sm" data-testid="customer-pep">
          {!pep ? (
            "Not a PEP."
          ) : (
            <>
              <p>
                <Badge>PEP</Badge> set by {pep.source === "pep-screening" ? "PEP screening" : pep.setByEmail} · {when(pep.createdAt)}
                {pep.evidence?.length ? (
                  <> · {pep.evidence.map((e) => `${e.entryName} (${e.listName ?? e.list}, ${e.result}, score ${e.score})`).join("; ")}</>
                ) : null}
              </p>
              {pep.approvedAt ? (
                <p data-testid="customer-pep-approval">
                  Approved by {pep.approvedByEmail} · {when(pep.approvedAt)}: {pep.approvalReason}
                </p>
              ) : (
                <p data-testid="customer-pep-approval">
                  Transfers wait in review for: ENHANCED KYC {c.verificationTier >= 2 ? <Badge>done</Badge> : <Badge>not yet</Badge>} and an admin&apos;s
                  approval <Badge>waiting</Badge>
                </p>
              )}
              {admin && !pep.approvedAt ? (
                <form action={approvePepCustomer} className="mt-2 flex flex-wrap items-center gap-2">
                  <input type="hidden" name="subscriptionId" value={s.id} />
                  <input type="hidden" name="back" value={back} />
                  <input name="reason" required minLength={3} className={input} placeholder="Reason" aria-label="PEP approval reason" />
                  <button className={primary}>Approve PEP</button>
                </form>
              ) : null}
            </>
          )}
        </div>
      </Card>
      <Card title={`Beneficiaries (${payees.length})`}>
        {payees.length === 0 ? (
          <p className="text-sm text-slate-500">No beneficiaries yet.</p>
        ) : (
          <table className="w-full text-sm" data-testid="beneficiaries">
            <thead>
              <tr className="text-left text-slate-500">
                <th className="p-1">Name</th>
                <th className="p-1">State</th>
                <th className="p-1">Screening</th>
                <th className="p-1">Created</th>
              </tr>
            </thead>
            <tbody>
              {payees.map((b) => (
                <tr key={b.id} className="border-t">
                  <td className="p-1">
                    {b.firstName} {b.lastName} <span className="font-mono text-xs text-slate-500">{b.id}</span>
                  </td>
                  <td className="p-1">
                    <Badge>{b.state}</Badge>
                    {b.archivedAt ? <> archived {when(b.archivedAt)}</> : null}
                  </td>
                  <td className="p-1">{b.screeningResult ? <Badge>{b.screeningResult}</Badge> : "not screened yet"}</td>
                  <td className="p-1">{when(b.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      <Card title={`Transfers (${detail.transfers.length})`}>
        {detail.transfers.length === 0 ? (
          <p className="text-sm text-slate-500">No transfers yet.</p>
        ) : (
          <table className="w-full text-sm">
            <thead>
              <tr className="text-left text-slate-500">
                <th className="p-1">Transfer</th>
                <th className="p-1">State</th>
                <th className="p-1">Amount</th>
                <th className="p-1">Created</th>
                <th className="p-1"></th>
              </tr>
            </thead>
            <tbody>
              {detail.transfers.map((t) => (
                <tr key={t.id} className="border-t">
                  <td className="p-1 font-mono">
                    <Link className="text-blue-700 underline" href={`/console/transfers/${t.id}`}>
                      {t.id}
                    </Link>
                  </td>
                  <td className="p-1">
                    <Badge>{t.state}</Badge>
                  </td>
                  <td className="p-1">{money(t.originAmount, t.originCurrency)}</td>
                  <td className="p-1">{when(t.createdAt)}</td>
                  <td className="p-1">
                    {admin && (HOLDABLE as readonly string[]).includes(t.state) && (
                      <form action={placeHold} className="flex gap-1">
                        <input type="hidden" name="transferId" value={t.id} />
                        <input type="hidden" name="back" value={back} />
                        <input name="reason" required minLength={3} className={input} placeholder="Reason" aria-label={`Hold reason for ${t.id}`} />
                        <button className={danger}>Hold</button>
                      </form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
    </>
  );
}
