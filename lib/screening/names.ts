/**
 * Name normalisation for screening: case, diacritics, punctuation, honorifics and the published
 * "SURNAME, Given Names" order, so "Dr. José O'Brien-Núñez" and "OBRIEN NUNEZ, Jose" give the
 * same words. Word order itself is left to the token-wise matcher (match-index.ts).
 */

// Letters NFKD does not decompose into a base letter and a mark.
const FOLD: Record<string, string> = { ß: "ss", æ: "ae", œ: "oe", ø: "o", đ: "d", ł: "l", ı: "i", þ: "th", ð: "d" };

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

/** Lower case ASCII words: no diacritics, apostrophes dropped (O'Brien → obrien), other punctuation a space. */
export function normaliseText(value: string): string {
  return value
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[ßæœøđłıþð]/g, (c) => FOLD[c] ?? c)
    .replace(/['’`]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/** The words of a name, honorifics dropped. */
export function nameTokens(value: string): string[] {
  return normaliseText(value)
    .split(" ")
    .filter((t) => t && !HONORIFICS.has(t));
}

/** A published "SURNAME, Given Names" as "Given Names SURNAME" (other names unchanged). */
export function naturalOrder(published: string): string {
  const comma = published.indexOf(",");
  if (comma < 0) return published.trim();
  return `${published.slice(comma + 1).trim()} ${published.slice(0, comma).trim()}`.trim();
}
