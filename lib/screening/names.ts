import anyAscii from "any-ascii";
import unhomoglyph from "unhomoglyph";

/**
 * The one matching form of a name (issue 19), for subjects, listed names and aliases alike, so
 * "Dr. José O'Brien-Núñez", "OBRIEN NUNEZ, Jose" and "Nori\u200bega" / "Nоriega" (Cyrillic о)
 * / "NORIEGA" give the same words:
 *
 * 1. NFKC: compatibility forms to their plain letters (fullwidth "Ｎ", ligature "ﬁ").
 * 2. Default-ignorable code points removed, not turned into spaces: a zero-width space, joiner,
 *    soft hyphen, word joiner, BOM or bidi control inside a word must not split it.
 * 3. In a word that mixes Latin letters with letters of another script, those letters to their
 *    Latin skeleton (UTS #39 confusables.txt, through `unhomoglyph`): a Cyrillic "о" in a Latin
 *    name is a lookalike, not a transliteration.
 * 4. Everything else non-ASCII transliterated (`any-ascii`): accents dropped, "ß" → "ss",
 *    "Ø" → "O", Arabic or Cyrillic list text (UN original-script names) to Latin.
 * 5. Lower case; apostrophes dropped (O'Brien → obrien); hyphens and any other punctuation a
 *    space, so "Caro-Quintero" is "caro quintero".
 * Word order is left to the token-wise matcher (match-index.ts).
 */

const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
const LATIN_LETTER = /\p{Script=Latin}/u;
const OTHER_LETTER = /(?!\p{Script=Latin})\p{L}/gu;

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
    .normalize("NFKC")
    .replace(IGNORABLE, "")
    .replace(/[^\s]+/gu, latinSkeleton);
  return anyAscii(text)
    .toLowerCase()
    .replace(/['`]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/** The matching form (kept under its older name for the identity key of lib/customers/profile.ts). */
export const normaliseText = matchingForm;

// Titles and honorifics that precede a name on forms and lists; never part of an identity.
const HONORIFICS = new Set([
  "mr",
  "mrs",
  "ms",
  "miss",
  "mx",
  "dr",
  "prof",
  "sir",
  "dame",
  "lord",
  "lady",
  "madam",
  "mme",
  "mlle",
  "mister",
  "sr",
  "sra",
  "srta",
  "don",
  "dona",
  "herr",
  "frau",
  "sheikh",
  "shaykh",
  "sheik",
  "hon",
  "rev",
  "col",
  "gen",
  "capt",
]);

/** The words of a name in the matching form, honorifics dropped. */
export function nameTokens(value: string): string[] {
  return matchingForm(value)
    .split(" ")
    .filter((t) => t && !HONORIFICS.has(t));
}

/** A published "SURNAME, Given Names" as "Given Names SURNAME" (other names unchanged). */
export function naturalOrder(published: string): string {
  const comma = published.indexOf(",");
  if (comma < 0) return published.trim();
  return `${published.slice(comma + 1).trim()} ${published.slice(0, comma).trim()}`.trim();
}
