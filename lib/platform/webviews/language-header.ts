import { LANGUAGES, type Language } from "@/lib/platform/i18n/language";

/**
 * The request header by which proxy.ts hands a webview page's language to the root layout
 * (`<html lang>`) and to the page itself, so both say the same thing and it is decided once.
 */
export const WEBVIEW_LANGUAGE_HEADER = "x-webview-language";

/** The header's value, or English when it is absent or not one of ours (a client cannot inject markup). */
export function languageFromHeader(value: string | null | undefined): Language {
  return (LANGUAGES as readonly string[]).includes(value ?? "") ? (value as Language) : "en";
}
