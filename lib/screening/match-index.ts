import jaroWinkler from "talisman/metrics/jaro-winkler";
import { nameTokens, naturalOrder } from "./names";

/**
 * In-memory matcher over one list version's individuals (docs/decisions.md, "Sanctions
 * screening"). Token-wise, like moov-io/watchman: each query word is paired with its best word of
 * a listed name (Jaro-Winkler, talisman), the pairs' similarities weighted by word length, and the
 * listed name's words left unpaired lower the score. Candidates come from a scan of the distinct
 * listed words (a few thousand), not of every name, so one screening stays in milliseconds.
 */

/** What the matcher needs of an entry (lib/screening/entity.ts SanctionedEntry, as stored). */
export interface IndexEntry {
  entryId: string;
  name: string;
  programs: string[];
  datesOfBirth: string[];
  nationalities: string[];
  aliases: { name: string }[];
}

interface IndexedName {
  entry: number;
  /** The name as published (primary or alias). */
  published: string;
  alias: boolean;
  tokens: number[];
}

export interface MatchIndex {
  list: string;
  versionId: string;
  entries: IndexEntry[];
  names: IndexedName[];
  vocabulary: string[];
  /** Word id → the names that contain it. */
  postings: number[][];
}

export interface MatchSubject {
  firstName: string;
  lastName: string;
  dateOfBirth?: string | null;
  nationality?: string | null;
}

export interface Candidate {
  entry: IndexEntry;
  matchedName: string;
  matchedAlias: boolean;
  /** Name similarity before the date-of-birth and nationality adjustments. */
  nameScore: number;
  score: number;
  agreed: string[];
  differed: string[];
}

/** A word pairs with a listed word only from this similarity on (below, it counts as unmatched). */
const WORD_MIN = 0.8;
/** Share of the score lost when none of a listed name's words are paired (scaled by the unpaired share). */
const UNPAIRED_PENALTY = 0.3;
/** Lost when the candidate's published dates of birth all differ from the subject's. */
const DOB_PENALTY = 0.15;
/** Lost when the candidate's published nationalities all differ from the subject's. */
const NATIONALITY_PENALTY = 0.05;

export function buildIndex(list: string, versionId: string, entries: IndexEntry[]): MatchIndex {
  const ids = new Map<string, number>();
  const vocabulary: string[] = [];
  const postings: number[][] = [];
  const names: IndexedName[] = [];
  const add = (entry: number, published: string, alias: boolean) => {
    const words = nameTokens(naturalOrder(published));
    if (words.length === 0) return;
    const index = names.length;
    const tokens = words.map((w) => {
      let id = ids.get(w);
      if (id === undefined) {
        id = vocabulary.push(w) - 1;
        ids.set(w, id);
        postings.push([]);
      }
      if (postings[id].at(-1) !== index) postings[id].push(index);
      return id;
    });
    names.push({ entry, published, alias, tokens });
  };
  entries.forEach((e, i) => {
    add(i, e.name, false);
    for (const a of e.aliases) add(i, a.name, true);
  });
  return { list, versionId, entries, names, vocabulary, postings };
}

/** A published date of birth ("YYYY-MM-DD", "YYYY-MM", "YYYY", "YYYY/YYYY") compatible with a full date. */
export function sameBirthDate(published: string, dateOfBirth: string): boolean {
  const range = /^(\d{4})\/(\d{4})$/.exec(published);
  if (range) {
    const year = Number(dateOfBirth.slice(0, 4));
    return year >= Number(range[1]) && year <= Number(range[2]);
  }
  return dateOfBirth.startsWith(published);
}

function wordsCloseEnough(a: string, b: string): boolean {
  return Math.abs(a.length - b.length) <= Math.max(2, Math.floor(Math.min(a.length, b.length) / 2));
}

/**
 * Scores every listed individual whose name shares at least two words (or the only word) with the
 * subject's, strongest first; only those at or above `minScore` are returned.
 */
export function matchSubject(index: MatchIndex, subject: MatchSubject, minScore: number): Candidate[] {
  const first = nameTokens(subject.firstName);
  const query = [...first, ...nameTokens(subject.lastName)].slice(0, 30);
  if (query.length === 0) return [];
  // Similar listed words per query word, and which query words each listed name shares.
  const similar = query.map((q) => {
    const found = new Map<number, number>();
    index.vocabulary.forEach((word, id) => {
      if (!wordsCloseEnough(q, word)) return;
      const sim = word === q ? 1 : jaroWinkler(q, word);
      if (sim >= WORD_MIN) found.set(id, sim);
    });
    return found;
  });
  const shared = new Map<number, number>();
  similar.forEach((found, qi) => {
    for (const id of found.keys()) for (const n of index.postings[id]) shared.set(n, (shared.get(n) ?? 0) | (1 << qi));
  });
  const needed = Math.min(2, query.length);
  const best = new Map<number, Candidate>();
  for (const [n, mask] of shared) {
    if (popcount(mask) < needed) continue;
    const name = index.names[n];
    const { score: nameScore, pairedQuery } = scoreName(query, name.tokens, index.vocabulary, similar);
    const entry = index.entries[name.entry];
    const agreed: string[] = [];
    const differed: string[] = [];
    // The subject's name parts: agreed when every word found a close listed word.
    const firstAgrees = first.every((_, i) => pairedQuery[i] >= 0.9);
    const lastAgrees = query.slice(first.length).every((_, i) => pairedQuery[first.length + i] >= 0.9);
    (firstAgrees ? agreed : differed).push("firstName");
    (lastAgrees ? agreed : differed).push("lastName");
    let score = nameScore;
    if (subject.dateOfBirth && entry.datesOfBirth.length > 0) {
      if (entry.datesOfBirth.some((d) => sameBirthDate(d, subject.dateOfBirth!))) agreed.push("dateOfBirth");
      else {
        differed.push("dateOfBirth");
        score -= DOB_PENALTY;
      }
    }
    if (subject.nationality && entry.nationalities.length > 0) {
      if (entry.nationalities.includes(subject.nationality.toUpperCase())) agreed.push("nationality");
      else {
        differed.push("nationality");
        score -= NATIONALITY_PENALTY;
      }
    }
    if (score < minScore) continue;
    const current = best.get(name.entry);
    if (!current || current.score < score) {
      best.set(name.entry, { entry, matchedName: name.published, matchedAlias: name.alias, nameScore, score, agreed, differed });
    }
  }
  return [...best.values()].sort((a, b) => b.score - a.score);
}

function popcount(mask: number): number {
  let n = 0;
  for (let m = mask; m; m &= m - 1) n++;
  return n;
}

/**
 * Pairs query words with listed words greedily, best similarity first, each word used once.
 * Score: length-weighted mean similarity of the query words (unpaired count 0), lowered by the
 * share of the listed name's letters left unpaired.
 */
function scoreName(query: string[], tokens: number[], vocabulary: string[], similar: Map<number, number>[]) {
  const pairs: [number, number, number][] = [];
  query.forEach((_, qi) =>
    tokens.forEach((id, ti) => {
      const sim = similar[qi].get(id);
      if (sim === undefined) return;
      // Jaro-Winkler rewards a shared prefix: words two or more letters apart in length are
      // usually different names ("lucia"/"luciano"), not a typo, and weigh less.
      const adjusted = Math.abs(query[qi].length - vocabulary[id].length) >= 2 ? sim * 0.9 : sim;
      // Below 0.9 a pair is more likely two different words ("maria"/"mark") than a typo: it weighs less.
      pairs.push([qi, ti, adjusted >= 0.9 ? adjusted : adjusted - 2 * (0.9 - adjusted)]);
    }),
  );
  pairs.sort((a, b) => b[2] - a[2]);
  const pairedQuery = query.map(() => 0);
  const pairedToken = tokens.map(() => false);
  const usedQuery = query.map(() => false);
  for (const [qi, ti, sim] of pairs) {
    if (usedQuery[qi] || pairedToken[ti]) continue;
    usedQuery[qi] = true;
    pairedToken[ti] = true;
    pairedQuery[qi] = sim;
  }
  const queryLength = query.reduce((s, q) => s + q.length, 0);
  const queryScore = query.reduce((s, q, qi) => s + pairedQuery[qi] * q.length, 0) / queryLength;
  const listedLength = tokens.reduce((s, id) => s + vocabulary[id].length, 0);
  const unpaired = tokens.reduce((s, id, ti) => s + (pairedToken[ti] ? 0 : vocabulary[id].length), 0) / listedLength;
  return { score: queryScore * (1 - UNPAIRED_PENALTY * unpaired), pairedQuery };
}
