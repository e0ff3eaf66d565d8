import { readFileSync } from "node:fs";
import path from "node:path";
import { nameTokens } from "@/lib/compliance/screening/names";
import type { MatchSubject } from "@/lib/compliance/screening/match-index";
import type { SanctionedEntry } from "@/lib/compliance/screening/entity";
import { ofacSdn } from "@/lib/compliance/screening/sources/ofac-sdn";

/**
 * The labelled set of docs/screening-quality.md, built from the shipped list: listed individuals
 * under realistic variations (each must be flagged), and common names that are not listed (each
 * should stay CLEAR). Deterministic: the same files give the same set.
 */
export const VARIATIONS = ["lowerCase", "accents", "reordered", "missingMiddle", "typo", "alias"] as const;
export type Variation = (typeof VARIATIONS)[number];

export interface ListedCase {
  variation: Variation;
  entryId: string;
  subject: MatchSubject;
}

export function shippedEntries(): SanctionedEntry[] {
  const dir = path.join(process.cwd(), "data", "sanctions", "ofac-sdn");
  const files = Object.fromEntries(ofacSdn.files.map((f) => [f, readFileSync(path.join(dir, f))]));
  return ofacSdn.parse(files).entries;
}

// A small deterministic generator (no Math.random: the set must be the same on every run).
function lcg(seed: number) {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

const title = (w: string) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase();
const ACCENTS: Record<string, string> = { a: "á", e: "é", i: "í", o: "ó", u: "ú", n: "ñ", c: "ç" };

function split(published: string): { given: string[]; surname: string[] } | null {
  const comma = published.indexOf(",");
  if (comma < 0) return null;
  const surname = published.slice(0, comma).trim().split(/\s+/).map(title);
  const given = published
    .slice(comma + 1)
    .trim()
    .split(/\s+/)
    .map(title);
  return given.length && surname.length ? { given, surname } : null;
}

function typo(word: string, rnd: () => number): string {
  // One letter replaced, away from the first letter (as a person mistyping it would).
  const i = 1 + Math.floor(rnd() * (word.length - 1));
  const letters = "abcdefghijklmnopqrstuvwxyz";
  let c = letters[Math.floor(rnd() * 26)];
  if (c === word[i].toLowerCase()) c = letters[(letters.indexOf(c) + 1) % 26];
  return word.slice(0, i) + c + word.slice(i + 1);
}

function fullBirthDate(e: SanctionedEntry): string | null {
  return e.datesOfBirth.find((d) => /^\d{4}-\d{2}-\d{2}$/.test(d)) ?? null;
}

/** At least `perVariation` listed cases of each variation, from distinct individuals. */
export function listedCases(entries: SanctionedEntry[], perVariation = 40): ListedCase[] {
  const rnd = lcg(11);
  const individuals = entries.filter((e) => e.kind === "individual" && split(e.name) && /^[A-Za-z ,.'-]+$/.test(e.name));
  const cases: ListedCase[] = [];
  const counts = new Map<Variation, number>(VARIATIONS.map((v) => [v, 0]));
  const step = Math.max(1, Math.floor(individuals.length / (perVariation * VARIATIONS.length * 2)));
  for (let i = 0; i < individuals.length && [...counts.values()].some((n) => n < perVariation); i += step) {
    const e = individuals[i];
    const { given, surname } = split(e.name)!;
    const variation = VARIATIONS.find((v) => counts.get(v)! < perVariation && applicable(v, e, given))!;
    if (!variation) continue;
    const dateOfBirth = fullBirthDate(e);
    let subject: MatchSubject = { firstName: given.join(" "), lastName: surname.join(" "), dateOfBirth, nationality: e.nationalities[0] ?? null };
    if (variation === "lowerCase") subject = { ...subject, firstName: subject.firstName.toLowerCase(), lastName: subject.lastName.toLowerCase() };
    if (variation === "accents") subject = { ...subject, firstName: given.map(accent).join(" "), lastName: surname.map(accent).join(" ") };
    if (variation === "reordered") subject = { ...subject, firstName: surname.join(" "), lastName: given.join(" ") };
    if (variation === "missingMiddle") subject = { ...subject, firstName: given.slice(0, -1).join(" ") };
    if (variation === "typo") {
      const longest = surname.reduce((a, b) => (b.length > a.length ? b : a));
      subject = { ...subject, lastName: surname.map((w) => (w === longest ? typo(w, rnd) : w)).join(" ") };
    }
    if (variation === "alias") {
      const alias = e.aliases.map((a) => split(a.name)).find((a) => a !== null)!;
      subject = { ...subject, firstName: alias.given.join(" "), lastName: alias.surname.join(" ") };
    }
    counts.set(variation, counts.get(variation)! + 1);
    cases.push({ variation, entryId: e.entryId, subject });
  }
  return cases;
}

function applicable(v: Variation, e: SanctionedEntry, given: string[]): boolean {
  if (v === "missingMiddle") return given.length >= 2;
  if (v === "alias") return e.aliases.some((a) => split(a.name) !== null);
  if (v === "accents") return given.join("").search(/[aeioun]/i) >= 0;
  return true;
}

function accent(word: string): string {
  const i = word.search(/[aeiounc]/i);
  if (i < 0) return word;
  const c = word[i];
  const a = ACCENTS[c.toLowerCase()];
  return word.slice(0, i) + (c === c.toLowerCase() ? a : a.toUpperCase()) + word.slice(i + 1);
}

// Common given names and surnames across the customer base of a remittance service (US census,
// INE, INSEE, ONS and similar top lists), mixed so the set is not only English.
const FIRST = [
  "James",
  "Mary",
  "Robert",
  "Patricia",
  "John",
  "Jennifer",
  "Michael",
  "Linda",
  "David",
  "Elizabeth",
  "William",
  "Susan",
  "Emma",
  "Olivia",
  "Lucas",
  "Sophie",
  "Thomas",
  "Julia",
  "Daniel",
  "Laura",
  "Maria",
  "Jose",
  "Carmen",
  "Juan",
  "Ana",
  "Luis",
  "Sofia",
  "Pierre",
  "Camille",
  "Hannah",
];
const LAST = [
  "Smith",
  "Johnson",
  "Williams",
  "Brown",
  "Jones",
  "Miller",
  "Davis",
  "Wilson",
  "Anderson",
  "Taylor",
  "Thomas",
  "Moore",
  "Martin",
  "Jackson",
  "Thompson",
  "White",
  "Harris",
  "Clark",
  "Lewis",
  "Walker",
  "Martinez",
  "Garcia",
  "Lopez",
  "Gonzalez",
  "Perez",
  "Sanchez",
  "Dubois",
  "Bernard",
  "Muller",
  "Schmidt",
];

/** `count` common first and last name pairs not listed (as a primary name or alias), with a date of birth. */
export function commonNames(entries: SanctionedEntry[], count = 200): MatchSubject[] {
  const listed = new Set(entries.flatMap((e) => [e.name, ...e.aliases.map((a) => a.name)]).map((n) => nameTokens(n).sort().join(" ")));
  const rnd = lcg(7);
  const out: MatchSubject[] = [];
  const seen = new Set<string>();
  while (out.length < count) {
    const firstName = FIRST[Math.floor(rnd() * FIRST.length)];
    const lastName = LAST[Math.floor(rnd() * LAST.length)];
    const key = `${firstName} ${lastName}`;
    if (seen.has(key) || listed.has(nameTokens(key).sort().join(" "))) continue;
    seen.add(key);
    const year = 1950 + Math.floor(rnd() * 50);
    const month = String(1 + Math.floor(rnd() * 12)).padStart(2, "0");
    const day = String(1 + Math.floor(rnd() * 28)).padStart(2, "0");
    out.push({ firstName, lastName, dateOfBirth: `${year}-${month}-${day}`, nationality: null });
  }
  return out;
}
