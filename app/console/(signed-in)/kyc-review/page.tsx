import { DecisionForm } from "@/components/console/decision-form";
import { Badge, Card, CustomerLabel, Empty, Flash, PageTitle, Pager, param, PartnerLabel, type SearchParams } from "@/components/console/ui";
import { customerName, when } from "@/lib/operations/console/format";
import { pageParam } from "@/lib/operations/console/page-param";
import { partnerNames } from "@/lib/operations/console/queries";
import type { KycDocumentCapture, KycEvidenceCapture } from "@/lib/identity/kyc/capture";
import { KycVerificationPanel } from "@/components/console/kyc-verification";
import { kycReviewQueue } from "@/lib/identity/kyc/review";
import { ready } from "@/lib/platform/ready";
import { decideKyc } from "./actions";

export const metadata = { title: "KYC review · Console" };

const text = (v: unknown) => (typeof v === "string" && v ? v : "—");

export default async function KycReviewQueue({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const page = pageParam(param(sp, "page"));
  const db = await ready();
  const [{ items, hasMore }, partnerName] = await Promise.all([kycReviewQueue(db, page), partnerNames(db)]);
  return (
    <>
      <PageTitle sub="Identity documents customers submitted: approve, ask for a correction (the customer sees your reason) or refuse.">KYC review</PageTitle>
      <Flash notice={param(sp, "notice")} error={param(sp, "error")} />
      {items.length === 0 ? <Empty>No KYC session is waiting for review.</Empty> : null}
      {items.map(({ session, profile, customerStatus, kycStatus, partnerId, photoType, photoSize, photoKinds }) => {
        const p = profile ?? {};
        // Either kind of capture: an identity document, or source-of-funds evidence (ENHANCED).
        const c: Partial<KycDocumentCapture & KycEvidenceCapture> = session.capture ?? {};
        const enhanced = session.purpose === "ENHANCED";
        return (
          <Card
            key={session.id}
            title={
              <span className="flex flex-wrap items-center gap-2">
                <Badge>{session.id}</Badge> {text(p.firstName)} {text(p.lastName)} <Badge>{session.purpose}</Badge>
              </span>
            }
          >
            <div className="grid gap-4 md:grid-cols-[1fr_auto]">
              <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
                <dt className="text-slate-500">Customer</dt>
                <dd>
                  <CustomerLabel name={customerName(profile)} id={session.customerId} /> · <PartnerLabel name={partnerName.get(partnerId)} id={partnerId} /> ·{" "}
                  {customerStatus} / KYC {kycStatus}
                </dd>
                <dt className="text-slate-500">Born</dt>
                <dd>{text(p.dateOfBirth)}</dd>
                <dt className="text-slate-500">Nationality</dt>
                <dd>{text(p.nationality)}</dd>
                {enhanced ? (
                  <>
                    <dt className="text-slate-500">Step-up</dt>
                    <dd>Source-of-funds evidence: approval moves the customer to tier 2 (higher limits).</dd>
                    <dt className="text-slate-500">Source of funds</dt>
                    <dd data-testid="kyc-source-of-funds">
                      {text(c.sourceOfFunds)}, annual income {text(c.annualIncomeBand)}
                    </dd>
                    <dt className="text-slate-500">Supporting document</dt>
                    <dd data-testid="kyc-document">{text(c.supportingDocumentType)}</dd>
                  </>
                ) : (
                  <>
                    <dt className="text-slate-500">Document</dt>
                    <dd data-testid="kyc-document">
                      {text(c.documentType)} {text(c.documentNumber)}, issued by {text(c.issuingCountry)}, expires {text(c.expiryDate)}
                    </dd>
                  </>
                )}
                <dt className="text-slate-500">Submitted</dt>
                <dd>{when(session.submittedAt)}</dd>
              </dl>
              {photoType ? (
                <a href={`/console/kyc-review/${session.id}/photo`} target="_blank" rel="noreferrer" className="block">
                  {/* eslint-disable-next-line @next/next/no-img-element -- private bytes, never through the image optimiser */}
                  <img
                    src={`/console/kyc-review/${session.id}/photo`}
                    alt={`Document photo of ${session.id} (${photoSize} bytes)`}
                    className="max-h-64 max-w-xs rounded border border-slate-200"
                  />
                </a>
              ) : (
                <p className="text-sm text-red-700">No photo.</p>
              )}
            </div>
            {session.verification && (
              <KycVerificationPanel kycSessionId={session.id} verification={session.verification} profile={p} capture={c} photoKinds={photoKinds} />
            )}
            <div className="mt-3">
              <DecisionForm
                action={decideKyc}
                hidden={{ kycSessionId: session.id }}
                back="/console/kyc-review"
                placeholder={enhanced ? "Payslip supports the declared income" : "Document matches the profile"}
                decisions={[
                  { name: "decision", value: "APPROVE", label: "Approve" },
                  { name: "decision", value: "CORRECTION", label: "Ask for correction" },
                  { name: "decision", value: "REFUSE", label: "Refuse", tone: "danger" },
                ]}
              />
            </div>
          </Card>
        );
      })}
      <Pager path="/console/kyc-review" page={page} hasMore={hasMore} />
    </>
  );
}
