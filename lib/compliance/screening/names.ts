import titles from "@/data/screening/titles.json";
import transliteration from "@/data/screening/transliteration.json";
import { matchingForm } from "@/lib/identity";

// The one matching form of a name is identity's (a customer's identity key and the KYC document
// checks use it too): screening matches subjects and listed names in it.
export { matchingForm };

/** The matching form under its older name (the screening provider's normaliseName). */
export const normaliseText = matchingForm;

// Titles, ranks and honorifics (data/screening/titles.json): never part of an identity.
const TITLES = new Set(titles.words);

/** A title, rank or honorific (data/screening/titles.json). */
export function isTitle(word: string): boolean {
  return TITLES.has(word);
}

/** Every word of a name in the matching form, titles included ("Car. Dona" is one word split: the matcher joins them). */
export function nameWords(value: string): string[] {
  const form = matchingForm(value);
  return form ? form.split(" ") : [];
}

/** The words of a name in the matching form, titles and honorifics dropped. */
export function nameTokens(value: string): string[] {
  return nameWords(value).filter((t) => !TITLES.has(t));
}

/** A published "SURNAME, Given Names" as "Given Names SURNAME" (other names unchanged). */
export function naturalOrder(published: string): string {
  const comma = published.indexOf(",");
  if (comma < 0) return published.trim();
  return `${published.slice(comma + 1).trim()} ${published.slice(0, comma).trim()}`.trim();
}

/** How many words (titles included) of a published "SURNAME, Given Names" are the surname (null: the list does not say). */
export function surnameWords(published: string): number | null {
  const comma = published.indexOf(",");
  if (comma < 0) return null;
  return nameWords(published.slice(0, comma)).length;
}

// Spellings of one name (data/screening/transliteration.json): the rules, then a class's skeleton.
const RULES = transliteration.rules.map(([pattern, replacement]) => [new RegExp(pattern, "g"), replacement] as const);

function rewritten(word: string): string {
  let s = word;
  for (const [pattern, replacement] of RULES) s = s.replace(pattern, replacement);
  return s.replace(/(.)\1+/g, "$1");
}

/** Each spelling of a class, as written and as rewritten by the rules, to the class's skeleton. */
const CLASS_SKELETON = new Map<string, string>();
for (const spellings of transliteration.classes) {
  const target = rewritten(spellings[0]);
  for (const s of spellings) {
    CLASS_SKELETON.set(s, target);
    CLASS_SKELETON.set(rewritten(s), target);
  }
}

/**
 * A word's transliteration skeleton: the rewriting rules in order, doubled letters made one, and a
 * spelling of a class as the class's. "Prigojine" and "Prigozhin", "Haniyeh" and "Haniya",
 * "Yevgeniy" and "Evgeny", "Hassan" and "Hasan", "Mohamed" and "Muhammad" have one skeleton each.
 */
export function skeleton(word: string): string {
  const direct = CLASS_SKELETON.get(word);
  if (direct !== undefined) return direct;
  const s = rewritten(word);
  return CLASS_SKELETON.get(s) ?? s;
}

// Letters read another way by some romanisations only (data/screening/transliteration.json "alternatives").
const ALTERNATIVES = transliteration.alternatives.map(([pattern, replacement]) => [new RegExp(pattern, "g"), replacement] as const);

/**
 * A word as some romanisations would write it and others not (data/screening/transliteration.json
 * "alternatives"): "xasan" → "khasan" as in Somali, "chalil" → "khalil" as
 * in German, "agha" → "aqa" as in Persian. Compared only where a date of birth agrees
 * (match-index.ts): elsewhere x is "ks", ch is "ch" or "sh", and gh and q are two sounds.
 */
export function alternativeSpelling(word: string): string {
  let s = word;
  for (const [pattern, replacement] of ALTERNATIVES) s = s.replace(pattern, replacement);
  return s;
}

/**
 * The skeleton of a word's alternative spelling, its doubled consonants written once before the
 * rules as well as after ("nazhhjar" → "nazhjar" → "naiar", as "najjar"): a doubled letter never
 * makes another name.
 */
export function alternativeSkeleton(alternative: string): string {
  return skeleton(alternative.replace(/([b-df-hj-np-tv-z])\1+/g, "$1"));
}

/** Each spelling of a transliteration class ("mehmet", "abdoul" ...) with its class's skeleton. */
export const CLASS_SPELLINGS: readonly (readonly [spelling: string, skeleton: string])[] = transliteration.classes.flatMap((spellings) =>
  spellings.map((s) => [s, skeleton(s)] as const),
);
