import type { Metadata } from "next";
import { KycCapture } from "@/components/webviews/kyc-capture";
import { WebviewExpired } from "@/components/webviews/webview-expired";
import { countryOptions } from "@/lib/platform/i18n/countries";
import { formatDateTime } from "@/lib/platform/i18n/format";
import { kycWebviewMessages } from "@/lib/platform/i18n/kyc-webview-messages";
import { kycSandboxButtons } from "@/lib/identity/kyc/decision-provider";
import { openKycWebview } from "@/lib/identity/kyc/webview";
import { webviewUnit } from "@/lib/platform/webviews/action";
import { requestLanguage } from "../../request-language";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: kycWebviewMessages[await requestLanguage()].title, referrer: "no-referrer" };
}

// The hosted KYC capture page at the session's webviewUrl (spec 2.3).
export default async function KycWebviewPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const language = await requestLanguage();
  const m = kycWebviewMessages[language];
  const opened = await webviewUnit(({ tx, now }) => openKycWebview(tx, token, now));
  if (!opened.ok && opened.error.status >= 500) throw opened.error;
  const model = opened.ok ? opened.value : null; // unknown, completed or expired: the expired page
  if (!model) return <WebviewExpired title={m.expiredTitle} body={m.expiredBody} language={language} />;
  // Formatted here, on the server: the browser's ICU could write it differently and break hydration.
  const validUntil = m.linkValidUntil.replace("{at}", formatDateTime(model.linkExpiresAt, language, model.timeZone));
  return (
    <KycCapture
      token={token}
      model={{ ...model, validUntil }}
      messages={m}
      language={language}
      countries={countryOptions(language)}
      sandbox={kycSandboxButtons()}
    />
  );
}
