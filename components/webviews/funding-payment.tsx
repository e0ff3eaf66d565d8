"use client";

import { useState, useSyncExternalStore, type FormEvent } from "react";
import type { FundingWebviewMessages } from "@/lib/platform/i18n/funding-webview-messages";
import type { FundingWebviewModel } from "@/lib/payments/transfers/funding-webview";
import type { FundingMethod } from "@/lib/payments/corridors/funding-methods";
import { signalClosure } from "./closure";
import { FundingBankTransfer } from "./funding-bank-transfer";

const noSubscription = () => () => {};
/** False in the server render and until hydration, true once React handles events on the page. */
const useHydrated = () =>
  useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );

const field =
  "mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-3 text-base focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-200";
const button =
  "w-full rounded-lg bg-blue-700 px-4 py-3 text-base font-semibold text-white focus:outline-none focus:ring-4 focus:ring-blue-300 disabled:opacity-60";

/** The amounts and the session's end, written for the customer by the server (lib/platform/i18n/format.ts). */
export interface FundingDisplay {
  youSend: string;
  fees: string;
  total: string;
  rate: string;
  recipientGets: string;
  until: string;
  /** The exact sum to send by bank transfer, for people (the reference and account stay verbatim). */
  bankAmount?: string;
}

type Result = "SUCCEEDED" | "FAILED" | "EXPIRED";

/**
 * Mobile-first payment page: the amounts, the recipient, and the sandbox payment methods. A
 * declined payment keeps the form, on the same session, for another card or method until the
 * session ends (docs/decisions.md); the partner hears of it only when the session closes.
 * Production has no instant method: the bank transfer details instead (funding-bank-transfer.tsx).
 */
export function FundingPayment({
  token,
  model,
  display: d,
  messages: m,
  language,
}: {
  token: string;
  model: FundingWebviewModel;
  display: FundingDisplay;
  messages: FundingWebviewMessages;
  language: string;
}) {
  const [method, setMethod] = useState<FundingMethod>(model.fundingMethods[0] ?? "CARD");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const [declined, setDeclined] = useState(0);
  const [error, setError] = useState<string | null>(null);
  // Before hydration a submit would be the browser's native GET: card number, expiry and CVC in the URL.
  const hydrated = useHydrated();

  async function pay(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const formElement = e.currentTarget;
    const form = new FormData(formElement);
    setBusy(true);
    setError(null);
    try {
      const body =
        method === "CARD"
          ? { method, cardNumber: String(form.get("cardNumber") ?? ""), expiry: String(form.get("expiry") ?? ""), cvc: String(form.get("cvc") ?? "") }
          : { method };
      const res = await fetch(`/webviews/funding/${token}/pay`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      if (res.status === 410) return setResult("EXPIRED");
      if (!res.ok) throw new Error(String(res.status));
      const outcome = (await res.json()) as { sessionState: "OPEN" | "SUCCEEDED" | "FAILED" };
      if (outcome.sessionState === "OPEN") {
        // Declined: same session, another try. The card fields are cleared for the next card.
        setDeclined((n) => n + 1);
        formElement.reset();
        return;
      }
      setResult(outcome.sessionState);
      signalClosure(model.closure, { fundingSessionId: model.fundingSessionId, sessionState: outcome.sessionState });
    } catch {
      setError(m.error);
    } finally {
      setBusy(false);
    }
  }

  const row = (label: string, value: string, strong = false) => (
    <div className="flex justify-between gap-4 py-1">
      <dt className="text-slate-600">{label}</dt>
      <dd className={strong ? "font-semibold" : ""}>{value}</dd>
    </div>
  );

  return (
    <main lang={language} className="mx-auto min-h-screen max-w-md p-4 sm:p-6">
      <h1 className="text-2xl font-semibold">{m.title}</h1>
      <dl className="mt-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200" data-testid="funding-summary">
        {row(m.youSend, d.youSend)}
        {row(m.fees, d.fees)}
        {row(m.total, d.total, true)}
        {row(m.rate, d.rate)}
        {row(m.recipientGets, d.recipientGets, true)}
        {row(m.recipient, `${model.recipient.name}${model.recipient.destinationMasked ? ` · ${model.recipient.destinationMasked}` : ""}`)}
      </dl>
      {result === null && model.paymentsConfigured && (
        <p className="mt-2 text-sm text-slate-600" data-testid="funding-until">
          {m.payBefore.replace("{at}", d.until)}
        </p>
      )}
      {result === null && declined > 0 && (
        <p role="alert" key={declined} className="mt-4 rounded-lg bg-red-50 p-3 text-red-800" data-testid="funding-declined">
          {m.declined.replace("{at}", d.until)}
        </p>
      )}
      {error && (
        <p role="alert" className="mt-4 rounded-lg bg-red-50 p-3 text-red-800">
          {error}
        </p>
      )}
      {!model.paymentsConfigured ? (
        <FundingBankTransfer model={model} messages={m} amount={d.bankAmount} until={d.until} />
      ) : result === null ? (
        <form onSubmit={pay} className="mt-6 space-y-4">
          <fieldset className="grid grid-cols-2 gap-2" aria-label="Payment method">
            {model.fundingMethods.map((value) => (
              <label
                key={value}
                className={`cursor-pointer rounded-lg border px-3 py-3 text-center font-medium ${method === value ? "border-blue-700 bg-blue-50 text-blue-900" : "border-slate-300 bg-white"}`}
              >
                <input type="radio" name="method" value={value} checked={method === value} onChange={() => setMethod(value)} className="sr-only" />
                {value === "CARD" ? m.card : m.bankTransfer}
              </label>
            ))}
          </fieldset>
          {method === "CARD" ? (
            <>
              <label className="block text-sm font-medium text-slate-700">
                {m.cardNumber}
                <input name="cardNumber" inputMode="numeric" autoComplete="cc-number" required className={field} placeholder="4242 4242 4242 4242" />
              </label>
              <div className="grid grid-cols-2 gap-3">
                <label className="block text-sm font-medium text-slate-700">
                  {m.expiry}
                  <input name="expiry" autoComplete="cc-exp" required className={field} placeholder="12/30" />
                </label>
                <label className="block text-sm font-medium text-slate-700">
                  {m.cvc}
                  <input name="cvc" inputMode="numeric" autoComplete="cc-csc" required className={field} placeholder="123" />
                </label>
              </div>
              {model.paymentsConfigured && <p className="text-sm text-amber-800">{m.sandboxCards}</p>}
            </>
          ) : (
            <p className="text-slate-700">{m.bankTransferNote}</p>
          )}
          <button type="submit" disabled={busy || !hydrated} className={button}>
            {busy ? m.paying : `${m.pay} ${d.total}`}
          </button>
        </form>
      ) : (
        <p
          role="status"
          data-testid={`funding-${result.toLowerCase()}`}
          className={`mt-6 rounded-lg p-4 ${result === "SUCCEEDED" ? "bg-emerald-50 text-emerald-900" : "bg-red-50 text-red-900"}`}
        >
          {result === "SUCCEEDED" ? m.succeeded : result === "FAILED" ? m.failed : `${m.expiredTitle}. ${m.expiredBody}`}
        </p>
      )}
    </main>
  );
}
