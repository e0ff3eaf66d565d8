import type { Metadata } from "next";
import { FundingPayment, type FundingDisplay } from "@/components/webviews/funding-payment";
import { WebviewExpired } from "@/components/webviews/webview-expired";
import { formatDateTime, formatDecimal, formatMoney } from "@/lib/platform/i18n/format";
import { fundingWebviewMessages } from "@/lib/platform/i18n/funding-webview-messages";
import type { Language } from "@/lib/platform/i18n/language";
import { webviewUnit } from "@/lib/platform/webviews/action";
import { openFundingWebview, type FundingWebviewModel } from "@/lib/payments/transfers/funding-webview";
import { requestLanguage } from "../../request-language";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: fundingWebviewMessages[await requestLanguage()].title, referrer: "no-referrer" };
}

/** The amounts and the deadline as the customer reads them, formatted on the server (hydration sees the same text). */
function display(model: FundingWebviewModel, language: Language): FundingDisplay {
  const a = model.amounts;
  return {
    youSend: formatMoney(a.originAmount, a.originCurrency, language),
    fees: formatMoney(a.fees, a.originCurrency, language),
    total: formatMoney(a.total, a.originCurrency, language),
    rate: `1 ${a.originCurrency} = ${formatDecimal(a.rate, language)} ${a.destinationCurrency}`,
    recipientGets: formatMoney(a.destinationAmount, a.destinationCurrency, language),
    until: formatDateTime(model.payBy, language, model.timeZone),
    ...(model.bankTransfer ? { bankAmount: formatMoney(model.bankTransfer.amount, model.bankTransfer.currency, language) } : {}),
  };
}

// The hosted funding page at fundingWebviewUrl (spec 2.8).
export default async function FundingWebviewPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const language = await requestLanguage();
  const all = fundingWebviewMessages[language];
  const opened = await webviewUnit(({ tx, now }) => openFundingWebview(tx, token, now));
  if (!opened.ok && opened.error.status >= 500) throw opened.error;
  const model = opened.ok ? opened.value : null; // unknown, used or expired: the expired page
  if (!model) return <WebviewExpired title={all.expiredTitle} body={all.expiredBody} language={language} />;
  // Without a funding rail (production without a payments provider) the sandbox wording never reaches the page.
  const messages = model.paymentsConfigured ? all : { ...all, sandboxCards: "", bankTransferNote: "" };
  return <FundingPayment token={token} model={model} display={display(model, language)} messages={messages} language={language} />;
}
