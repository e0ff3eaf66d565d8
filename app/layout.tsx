import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import { languageFromHeader, WEBVIEW_LANGUAGE_HEADER } from "@/lib/platform/webviews/language-header";
import "./globals.css";

export const metadata: Metadata = { title: "Remit Core", description: "White-label money-transfer platform" };
export const viewport: Viewport = { width: "device-width", initialScale: 1 };

/**
 * `<html lang>` is the hosted webview's language (decided once by proxy.ts and forwarded as a
 * request header, as next-intl does without locale routing); every other page is in English.
 */
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const lang = languageFromHeader((await headers()).get(WEBVIEW_LANGUAGE_HEADER));
  return (
    <html lang={lang}>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}
