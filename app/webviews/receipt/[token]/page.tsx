import type { Metadata } from "next";
import { PrintButton } from "@/components/webviews/print-button";
import { WebviewExpired } from "@/components/webviews/webview-expired";
import { receiptLines, receiptMessages } from "@/lib/platform/i18n/receipt-messages";
import { openReceiptWebview } from "@/lib/payments/receipts/receipt";
import { webviewUnit } from "@/lib/platform/webviews/action";
import { requestLanguage } from "../../request-language";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: receiptMessages[await requestLanguage()].title, referrer: "no-referrer" };
}

// The hosted, printable receipt at receiptUrl: the token in the path is the credential.
export default async function ReceiptWebviewPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const language = await requestLanguage();
  const m = receiptMessages[language];
  const opened = await webviewUnit(({ tx, now }) => openReceiptWebview(tx, token, language, now));
  if (!opened.ok && opened.error.status >= 500) throw opened.error;
  const model = opened.ok ? opened.value : null;
  if (!model) return <WebviewExpired title={m.expiredTitle} body={m.expiredBody} language={language} />;
  const { receipt, timeZone } = model;
  const provider = receipt.provider;
  return (
    <main lang={language} className="mx-auto max-w-2xl p-6" data-testid="receipt">
      <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 print:shadow-none print:ring-0">
        <div className="flex items-center justify-between">
          <h1 className="text-xl font-semibold">{m.title}</h1>
          <PrintButton label={m.print} />
        </div>
        <dl className="mt-4 grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
          {receiptLines(receipt, language, timeZone).map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-slate-600">{label}</dt>
              <dd className="font-medium">{value}</dd>
            </div>
          ))}
        </dl>
        <h2 className="mt-6 font-semibold">{m.rights}</h2>
        {receipt.rightsStatement.split("\n").map((line) => (
          <p key={line} className="mt-2 text-sm text-slate-700">
            {line}
          </p>
        ))}
        <h2 className="mt-6 font-semibold">{m.provider}</h2>
        <p className="mt-2 text-sm text-slate-700" data-testid="receipt-provider">
          {[provider.name, provider.phone, provider.website, provider.regulator].filter(Boolean).join(" · ")}
        </p>
      </div>
    </main>
  );
}
