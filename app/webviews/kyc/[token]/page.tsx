import { headers } from "next/headers";
import { KycCapture } from "@/components/webviews/kyc-capture";
import { WebviewExpired } from "@/components/webviews/webview-expired";
import { clock } from "@/lib/clock";
import { kycWebviewMessages } from "@/lib/i18n/kyc-webview-messages";
import { chooseLanguage } from "@/lib/i18n/language";
import { kycSandboxButtons } from "@/lib/kyc/decision-provider";
import { openKycWebview } from "@/lib/kyc/webview";
import { unitOfWork } from "@/lib/platform/unit-of-work";

export const dynamic = "force-dynamic";
export const metadata = { title: "Identity verification", referrer: "no-referrer" as const };

// The hosted KYC capture page at the session's webviewUrl (spec 2.3).
export default async function KycWebviewPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const requestHeaders = await headers();
  const opened = await unitOfWork((tx) => openKycWebview(tx, token, clock.now()));
  if (!opened.ok && opened.error.code === "server.unexpected") throw opened.error;
  const model = opened.ok ? opened.value : null; // unknown, completed or expired: the expired page
  if (!model) {
    const language = chooseLanguage(requestHeaders.get("accept-language"));
    const m = kycWebviewMessages[language];
    return <WebviewExpired title={m.expiredTitle} body={m.expiredBody} language={language} />;
  }
  const language = chooseLanguage(requestHeaders.get("accept-language"), model.locale);
  return <KycCapture token={token} model={model} messages={kycWebviewMessages[language]} language={language} sandbox={kycSandboxButtons()} />;
}
