import Negotiator from "negotiator";

export const LANGUAGES = ["en", "fr", "es"] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * Language choice (spec 4.1 rule 4): Accept-Language with q-values (negotiator), then the
 * customer's preference, then English.
 */
export function chooseLanguage(acceptLanguage: string | null | undefined, preferred?: string | null): Language {
  if (acceptLanguage) {
    const chosen = new Negotiator({ headers: { "accept-language": acceptLanguage } }).language([...LANGUAGES]);
    if (chosen && acceptLanguage.trim() !== "*") return chosen as Language;
  }
  if (preferred && (LANGUAGES as readonly string[]).includes(preferred)) return preferred as Language;
  return "en";
}
