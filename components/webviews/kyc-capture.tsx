"use client";

import { useState, useSyncExternalStore, type FormEvent } from "react";
import type { CountryOption } from "@/lib/platform/i18n/countries";
import type { KycWebviewMessages } from "@/lib/platform/i18n/kyc-webview-messages";
import { ANNUAL_INCOME_BANDS, SOURCES_OF_FUNDS, SUPPORTING_DOCUMENT_TYPES } from "@/lib/identity/kyc/capture";
import type { KycWebviewModel } from "@/lib/identity/kyc/webview";
import { signalClosure } from "./closure";

type Step = "capture" | "decide" | "submitted" | "done";

const noSubscription = () => () => {};
/** False in the server render and until hydration, true once React handles events on the page. */
const useHydrated = () =>
  useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );

async function post(url: string, body: unknown): Promise<{ sessionState?: string }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(String(res.status));
  return res.json();
}

/** One optional picture: uploaded only when the customer chose a file. */
const chosen = (form: FormData, name: string) => {
  const f = form.get(name);
  return f instanceof File && f.size > 0 ? f : null;
};

async function upload(url: string, file: File): Promise<void> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": file.type || "image/jpeg" }, body: file });
  if (!res.ok) throw new Error(String(res.status));
}

const field =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-3 text-base focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-200";
const label = "block text-sm font-medium text-slate-700";
const button = "w-full rounded-lg px-4 py-3 text-base font-semibold focus:outline-none focus:ring-4 disabled:opacity-60";

/** The step-up's fields (purpose ENHANCED): source of funds, income band, supporting document type. */
function EvidenceFields({ m }: { m: KycWebviewMessages }) {
  const choice = (name: string, title: string, values: readonly string[], prefix: string) => (
    <label className={label}>
      {title}
      <select name={name} required defaultValue="" className={field}>
        <option value="" disabled>
          {m.choose}
        </option>
        {values.map((v) => (
          <option key={v} value={v}>
            {m[`${prefix}_${v}` as keyof KycWebviewMessages]}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <>
      {choice("sourceOfFunds", m.sourceOfFunds, SOURCES_OF_FUNDS, "source")}
      {choice("annualIncomeBand", m.incomeBand, ANNUAL_INCOME_BANDS, "band")}
      {choice("supportingDocumentType", m.supportingDocumentType, SUPPORTING_DOCUMENT_TYPES, "doc")}
    </>
  );
}

/** The identity document's fields (purposes NEW, RESUME, RESUBMISSION). */
function DocumentFields({ m, countries }: { m: KycWebviewMessages; countries: CountryOption[] }) {
  return (
    <>
      <label className={label}>
        {m.documentType}
        <select name="documentType" className={field} defaultValue="PASSPORT">
          <option value="PASSPORT">{m.passport}</option>
          <option value="ID_CARD">{m.idCard}</option>
          <option value="DRIVING_LICENCE">{m.drivingLicence}</option>
        </select>
      </label>
      <label className={label}>
        {m.documentNumber}
        <input name="documentNumber" required minLength={4} maxLength={30} autoComplete="off" className={field} />
      </label>
      <label className={label}>
        {m.issuingCountry}
        <select name="issuingCountry" required defaultValue="" className={field}>
          <option value="" disabled>
            {m.chooseCountry}
          </option>
          {countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      <label className={label}>
        {m.expiryDate}
        <input name="expiryDate" type="date" required className={field} />
      </label>
    </>
  );
}

const fileField = `${field} file:mr-3 file:rounded file:border-0 file:bg-slate-100 file:px-3 file:py-2`;

/**
 * The machine's pictures: an identity card's back, a selfie and a second one with the head turned
 * (camera on a phone: capture="user"; upload elsewhere), each with its framing guidance.
 */
function SelfieFields({ m }: { m: KycWebviewMessages }) {
  const picture = (name: string, title: string, guide: string | null, capture: "user" | "environment", required: boolean) => (
    <label className={label}>
      {title}
      <input name={name} type="file" accept="image/jpeg,image/png,image/webp" capture={capture} required={required} className={fileField} />
      {guide && <span className="mt-1 block text-sm text-slate-500">{guide}</span>}
    </label>
  );
  return (
    <>
      {picture("documentBack", m.documentBack, null, "environment", false)}
      {picture("selfie", m.selfie, m.selfieGuide, "user", true)}
      {picture("selfieTurn", m.selfieTurn, m.selfieTurnGuide, "user", true)}
    </>
  );
}

/**
 * Mobile-first document capture of the hosted KYC page: with the sandbox outcome buttons, or (when
 * operators decide) sent to the console's review queue, showing a reviewer's correction request.
 */
export function KycCapture({
  token,
  model,
  messages: m,
  language,
  countries,
  sandbox,
}: {
  token: string;
  /** validUntil: the link's end, already written for the customer by the server. */
  model: KycWebviewModel & { validUntil: string };
  messages: KycWebviewMessages;
  language: string;
  countries: CountryOption[];
  sandbox: boolean;
}) {
  const [step, setStep] = useState<Step>(model.submitted ? "submitted" : model.captured && sandbox ? "decide" : "capture");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Before hydration a submit would be the browser's native GET: the document number in the URL.
  const hydrated = useHydrated();
  const base = `/webviews/kyc/${token}`;
  const enhanced = model.purpose === "ENHANCED";

  async function submitCapture(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const photo = form.get("photo");
    // The form is noValidate (one message of ours instead of the browser's bubbles), so its
    // required/pattern constraints are checked here rather than answered with a generic error.
    if (!e.currentTarget.checkValidity() || !(photo instanceof File) || photo.size === 0) return setError(m.required);
    setBusy(true);
    setError(null);
    try {
      // Operators decide: the reviewer needs the photo itself, sent as raw bytes before the fields.
      if (!sandbox) await upload(`${base}/photo`, photo);
      // The machine's verification: an identity card's back carries the zone; the selfies are the face match and its liveness step.
      if (!sandbox && model.selfies) {
        for (const [name, kind] of [
          ["documentBack", "DOCUMENT_BACK"],
          ["selfie", "SELFIE"],
          ["selfieTurn", "SELFIE_TURN"],
        ] as const) {
          const file = chosen(form, name);
          if (file) await upload(`${base}/photo?kind=${kind}`, file);
        }
      }
      const photoFacts = { size: photo.size, type: photo.type || "image/jpeg" };
      const result = await post(
        `${base}/capture`,
        enhanced
          ? {
              sourceOfFunds: form.get("sourceOfFunds"),
              annualIncomeBand: form.get("annualIncomeBand"),
              supportingDocumentType: form.get("supportingDocumentType"),
              photo: photoFacts,
            }
          : {
              documentType: form.get("documentType"),
              documentNumber: String(form.get("documentNumber") ?? ""),
              issuingCountry: String(form.get("issuingCountry") ?? ""),
              expiryDate: form.get("expiryDate"),
              photo: photoFacts,
            },
      );
      if (sandbox) setStep("decide");
      else {
        setStep("submitted");
        signalClosure(model.closure, { kycSessionId: model.kycSessionId, sessionState: result.sessionState ?? "IN_PROGRESS" });
      }
    } catch {
      setError(m.error);
    } finally {
      setBusy(false);
    }
  }

  async function decide(outcome: string) {
    setBusy(true);
    setError(null);
    try {
      const result = await post(`${base}/outcome`, { outcome });
      setStep("done");
      signalClosure(model.closure, { kycSessionId: model.kycSessionId, sessionState: result.sessionState ?? "COMPLETED" });
    } catch {
      setError(m.error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main lang={language} className="mx-auto min-h-screen max-w-md p-4 sm:p-6">
      <h1 className="text-2xl font-semibold">{enhanced ? m.evidenceTitle : m.title}</h1>
      <p className="mt-2 text-slate-600">{enhanced ? m.evidenceIntro : m.intro}</p>
      {(step === "capture" || step === "decide") && (
        <p className="mt-1 text-sm text-slate-500" data-testid="kyc-valid-until">
          {model.validUntil}
        </p>
      )}
      {error && (
        <p role="alert" className="mt-4 rounded-lg bg-red-50 p-3 text-red-800">
          {error}
        </p>
      )}
      {step === "capture" && model.correctionReason && (
        <section role="note" aria-labelledby="correction-title" className="mt-4 rounded-lg bg-amber-50 p-3 text-amber-900" data-testid="kyc-correction">
          <h2 id="correction-title" className="font-semibold">
            {m.correctionTitle}
          </h2>
          <p className="mt-1">{model.correctionReason}</p>
        </section>
      )}
      {step === "capture" && (
        <form onSubmit={submitCapture} className="mt-6 space-y-4" noValidate>
          {enhanced ? <EvidenceFields m={m} /> : <DocumentFields m={m} countries={countries} />}
          <label className={label}>
            {enhanced ? m.supportingDocumentPhoto : m.photo}
            <input
              name="photo"
              type="file"
              accept={sandbox ? "image/*" : "image/jpeg,image/png,image/webp"}
              capture="environment"
              required
              className={`${field} file:mr-3 file:rounded file:border-0 file:bg-slate-100 file:px-3 file:py-2`}
            />
            {model.selfies && <span className="mt-1 block text-sm text-slate-500">{m.photoGuide}</span>}
          </label>
          {model.selfies && <SelfieFields m={m} />}
          <button type="submit" disabled={busy || !hydrated} className={`${button} bg-blue-700 text-white focus:ring-blue-300`}>
            {busy ? m.submitting : m.submit}
          </button>
        </form>
      )}
      {step === "decide" && (
        <section className="mt-6 space-y-3" aria-labelledby="sandbox-title">
          <p className="rounded-lg bg-emerald-50 p-3 text-emerald-900">{m.received}</p>
          <h2 id="sandbox-title" className="text-sm font-semibold uppercase tracking-wide text-amber-700">
            {m.sandboxTitle}
          </h2>
          <button type="button" disabled={busy} onClick={() => decide("APPROVED")} className={`${button} bg-emerald-700 text-white focus:ring-emerald-300`}>
            {m.approve}
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() => decide("REMEDIATION_REQUIRED")}
            className={`${button} bg-amber-500 text-slate-900 focus:ring-amber-200`}
          >
            {m.remediate}
          </button>
          <button type="button" disabled={busy} onClick={() => decide("REJECTED")} className={`${button} bg-red-700 text-white focus:ring-red-300`}>
            {m.reject}
          </button>
        </section>
      )}
      {step === "submitted" && (
        <div role="status" className="mt-6 space-y-2 rounded-lg bg-emerald-50 p-4 text-emerald-900" data-testid="kyc-submitted">
          <p>{m.received}</p>
          <p>{m.underReview}</p>
        </div>
      )}
      {step === "done" && (
        <p role="status" className="mt-6 rounded-lg bg-emerald-50 p-4 text-emerald-900" data-testid="kyc-done">
          {m.done}
        </p>
      )}
    </main>
  );
}
