import anyAscii from "any-ascii";
import unhomoglyph from "unhomoglyph";
import latinLetters from "@/data/screening/latin-letters.json";

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
