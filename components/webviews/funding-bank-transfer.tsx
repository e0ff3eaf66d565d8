import type { FundingWebviewMessages } from "@/lib/platform/i18n/funding-webview-messages";
import type { FundingWebviewModel } from "@/lib/payments/transfers/funding-webview";

/** Groups of four, as printed on bank documents (IBAN, RF reference). */
const grouped = (text: string) => text.replace(/(.{4})(?=.)/g, "$1 ");

/**
 * Production funding: where to send the money, the exact amount and the ISO 11649
 * reference. The transfer stays in funding until a bank statement shows the credit.
 */
export function FundingBankTransfer({
  model,
  messages: m,
  amount,
  until,
}: {
  model: FundingWebviewModel;
  messages: FundingWebviewMessages;
  amount?: string;
  /** The session's end, for people: a credit booked later is LATE (docs/decisions.md) and goes back to the payer. */
  until: string;
}) {
  const bt = model.bankTransfer;
  if (!bt) {
    // The corridor's version does not offer bank transfer (a card-only corridor), or the collection account does not take the currency.
    return (
      <p role="alert" className="mt-6 rounded border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900" data-testid="bank-transfer-unavailable">
        {model.fundingMethods.includes("BANK_TRANSFER") ? `${m.bankTransferUnavailable} (${model.bankTransferCurrency})` : m.bankTransferNotOffered}
      </p>
    );
  }
  const row = (label: string, value: string, testId: string, strong = false) => (
    <div className="py-1.5">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className={`break-all font-mono text-base ${strong ? "font-semibold" : ""}`} data-testid={testId}>
        {value}
      </dd>
    </div>
  );
  return (
    <section className="mt-6" aria-labelledby="bank-transfer-title" data-testid="bank-transfer">
      <h2 id="bank-transfer-title" className="text-lg font-semibold">
        {m.bankTransferTitle}
      </h2>
      <p className="mt-1 text-slate-700">{m.bankTransferIntro}</p>
      <dl className="mt-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        {row(m.accountName, bt.collectionAccount.name, "bank-account-name")}
        {row(m.iban, grouped(bt.collectionAccount.iban), "bank-iban")}
        {row(m.bic, bt.collectionAccount.bic, "bank-bic")}
        {row(m.amountToSend, amount ?? `${bt.amount} ${bt.currency}`, "bank-amount", true)}
        {row(m.reference, grouped(bt.reference), "bank-reference", true)}
      </dl>
      <p className="mt-3 text-sm text-slate-700">{m.referenceNote}</p>
      <p className="mt-3 font-semibold" data-testid="funding-until">
        {m.payBefore.replace("{at}", until)}
      </p>
      <p role="status" className="mt-3 rounded-lg bg-blue-50 p-3 text-sm text-blue-900">
        {m.whatNext.replace("{at}", until)}
      </p>
      <p className="mt-3 text-sm text-slate-700" data-testid="funding-late">
        {m.lateNote.replace("{at}", until)}
      </p>
    </section>
  );
}
