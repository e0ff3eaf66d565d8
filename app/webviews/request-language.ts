import { headers } from "next/headers";
import type { Language } from "@/lib/platform/i18n/language";
import { languageFromHeader, WEBVIEW_LANGUAGE_HEADER } from "@/lib/platform/webviews/language-header";

/** The hosted page's language, as proxy.ts decided it for `<html lang>` (lib/platform/webviews/language.ts). */
export async function requestLanguage(): Promise<Language> {
  return languageFromHeader((await headers()).get(WEBVIEW_LANGUAGE_HEADER));
}
