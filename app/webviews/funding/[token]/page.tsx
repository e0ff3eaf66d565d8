import { headers } from "next/headers";
import { FundingPayment } from "@/components/webviews/funding-payment";
import { WebviewExpired } from "@/components/webviews/webview-expired";
import { clock } from "@/lib/clock";
import { fundingWebviewMessages } from "@/lib/i18n/funding-webview-messages";
import { chooseLanguage } from "@/lib/i18n/language";
import { unitOfWork } from "@/lib/platform/unit-of-work";
import { openFundingWebview } from "@/lib/transfers/funding-webview";

export const dynamic = "force-dynamic";
export const metadata = { title: "Payment", referrer: "no-referrer" as const };

// The hosted funding page at fundingWebviewUrl (spec 2.8).
export default async function FundingWebviewPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const acceptLanguage = (await headers()).get("accept-language");
  const opened = await unitOfWork((tx) => openFundingWebview(tx, token, clock.now()));
  if (!opened.ok && opened.error.code === "server.unexpected") throw opened.error;
  const model = opened.ok ? opened.value : null; // unknown, used or expired: the expired page
  if (!model) {
    const language = chooseLanguage(acceptLanguage);
    const m = fundingWebviewMessages[language];
    return <WebviewExpired title={m.expiredTitle} body={m.expiredBody} language={language} />;
  }
  const language = chooseLanguage(acceptLanguage, model.locale);
  const all = fundingWebviewMessages[language];
  // Without a funding rail (production before issue 12) the sandbox wording never reaches the page.
  const messages = model.paymentsConfigured ? all : { ...all, sandboxCards: "", bankTransferNote: "" };
  return <FundingPayment token={token} model={model} messages={messages} language={language} />;
}
