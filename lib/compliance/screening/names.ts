import anyAscii from "any-ascii";
import unhomoglyph from "unhomoglyph";
import latinLetters from "@/data/screening/latin-letters.json";
import titles from "@/data/screening/titles.json";
import transliteration from "@/data/screening/transliteration.json";

/**
 * The one matching form of a name, for subjects, listed names and aliases
 * alike, so "Dr. José O'Brien-Núñez", "OBRIEN NUNEZ, Jose" and "Nori\u200bega" / "Nоriega"
 * (Cyrillic о) / "NORIEGA" give the same words:
 *
 * 1. The few Latin letters the name policy accepts that have no plain form of their own ("ƅ",
 *    tone six, looks like b, not 6; "ŀ" would become "l·" in step 2) from
 *    data/screening/latin-letters.json; then NFKC: compatibility forms to their plain letters
 *    (fullwidth "Ｎ", ligature "ﬁ").
 * 2. Default-ignorable code points removed, not turned into spaces: a zero-width space, joiner,
 *    soft hyphen, word joiner, BOM or bidi control inside a word must not split it.
 * 3. In a word that mixes Latin letters with letters of another script, those letters to their
 *    Latin skeleton (UTS #39 confusables.txt, through `unhomoglyph`): a Cyrillic "о" in a Latin
 *    name is a lookalike, not a transliteration.
 * 4. Everything else non-ASCII transliterated (`any-ascii`): accents dropped, "ß" → "ss",
 *    "Ø" → "O", Arabic or Cyrillic list text (UN original-script names) to Latin.
 * 5. Lower case; apostrophes dropped (O'Brien → obrien); hyphens, periods and any other
 *    punctuation a space, so "Caro-Quintero" is "caro quintero" (a period inside a word, "Guz.man",
 *    splits it too: the matcher joins neighbouring words again, match-index.ts).
 * Word order is left to the token-wise matcher (match-index.ts).
 */

const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
const LATIN_LETTER = /\p{Script=Latin}/u;
const OTHER_LETTER = /(?!\p{Script=Latin})\p{L}/gu;
const LETTER_OVERRIDES: Record<string, string> = latinLetters.letters;
const OVERRIDDEN = new RegExp(`[${Object.keys(LETTER_OVERRIDES).join("")}]`, "gu");

/** A mixed-script word's non-Latin letters as their Latin lookalikes (when UTS #39 has one). */
function latinSkeleton(word: string): string {
  if (!LATIN_LETTER.test(word)) return word;
  return word.replace(OTHER_LETTER, (c) => {
    const prototype = unhomoglyph(c);
    return /^[A-Za-z]+$/.test(prototype) ? prototype : c;
  });
}

/** Lower case ASCII words separated by single spaces: the matching form described above. */
export function matchingForm(value: string): string {
  const text = value
    .normalize("NFC")
    .replace(OVERRIDDEN, (c) => LETTER_OVERRIDES[c])
    .normalize("NFKC")
    .replace(IGNORABLE, "")
    .replace(/[^\s]+/gu, latinSkeleton);
  return anyAscii(text)
    .toLowerCase()
    .replace(/['`]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/** The matching form (kept under its older name for the identity key of lib/identity/customers/profile.ts). */
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
