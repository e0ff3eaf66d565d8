import countries from "./iso-countries";
import type { Language } from "./language";

// The names come from i18n-iso-countries (already our ISO 3166 list for validation).

export interface CountryOption {
  /** ISO 3166-1 alpha-3, what the API stores. */
  code: string;
  name: string;
}

const cache = new Map<Language, CountryOption[]>();

/** Every country, named in `language` and sorted as that language sorts ("Égypte" after "Danemark" in fr). */
export function countryOptions(language: Language): CountryOption[] {
  let list = cache.get(language);
  if (!list) {
    const collator = new Intl.Collator(language);
    list = Object.entries(countries.getNames(language, { select: "official" }))
      .map(([alpha2, name]) => ({ code: countries.alpha2ToAlpha3(alpha2) ?? "", name }))
      .filter((c) => c.code !== "")
      .sort((a, b) => collator.compare(a.name, b.name));
    cache.set(language, list);
  }
  return list;
}
