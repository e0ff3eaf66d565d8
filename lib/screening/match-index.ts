import doubleMetaphone from "talisman/phonetics/double-metaphone";
import jaroWinkler from "talisman/metrics/jaro-winkler";
import { nameTokens, naturalOrder } from "./names";

/**
 * In-memory matcher over one list version's individuals (docs/decisions.md, "Sanctions
 * screening"). Token-wise, like moov-io/watchman: each query word is paired with its best word of
 * a listed name (Jaro-Winkler, talisman), the pairs' similarities weighted by word length, and the
 * listed name's words left unpaired lower the score. Candidates come from a scan of the distinct
 * listed words (a few thousand, most skipped by a letter-count bound before any Jaro-Winkler), not
 * of every name, so one screening stays well under 5 ms. Weak aliases (UN "Low" quality, names in
 * their original script) are not scanned: they match only exactly.
 */

/** What the matcher needs of an entry (lib/screening/entity.ts SanctionedEntry, as stored). */
export interface IndexEntry {
  entryId: string;
  reference?: string | null;
  name: string;
  programs: string[];
  datesOfBirth: string[];
  nationalities: string[];
  aliases: { name: string; quality?: "low" | null }[];
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
  /** Word → its id. */
  wordIds: Map<string, number>;
  /** Word id → its letters as char codes (the letter-count bound of the scan). */
  letters: Uint8Array[];
  /** Word id → the set of its letters as bits (a-z, 0-9 folded in), the first and cheapest bound. */
  masks: Int32Array;
  /** Word length → the ids of the words of that length. */
  byLength: Int32Array[];
  /** Word id → its Double Metaphone code (null when too short to tell names apart). */
  sounds: (string | null)[];
  /** Weak aliases by their words, sorted and joined: matched only when the subject's words are the same. */
  exact: Map<string, number[]>;
  /**
   * The similar listed words of the query words seen lately (subjects' words repeat: given names,
   * common surnames), so a scan runs once per word, not once per screening. Bounded: the oldest
   * go first.
   */
  seen: Map<string, Map<number, number>>;
  /** Scratch: per name, the query words it shares (all zero between screenings). */
  shared?: Int32Array;
}

/** Query words whose similar listed words an index keeps (a few hundred bytes each). */
const SEEN_WORDS = 5000;

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
/**
 * Two similar words (Jaro-Winkler at least WORD_MIN) that also sound the same (equal Double
 * Metaphone code of three or more letters) are at least this similar: transliterations of one
 * Arabic name differ in their vowels and doubled letters ("mohammed"/"muhammad" is 0.85 by
 * Jaro-Winkler alone, "yusuf"/"youssef" 0.81), not in how they sound. Sound alone never makes a
 * pair: "aminu"/"ayman" or "omar"/"amir" share a code but are different names.
 */
const SAME_SOUND = 0.9;
/** Share of the score lost when none of a listed name's words are paired (scaled by the unpaired share). */
const UNPAIRED_PENALTY = 0.3;
/** Lost when the candidate's published dates of birth all differ from the subject's. */
const DOB_PENALTY = 0.15;
/** Lost when the candidate's published nationalities all differ from the subject's. */
const NATIONALITY_PENALTY = 0.05;
/** A one-letter word is an initial: it pairs with a word it begins, at this similarity. */
const INITIAL = 0.9;

/** The Double Metaphone code that stands for a word's sound, or null when too short to tell names apart. */
function sound(word: string): string | null {
  if (word.length < 3) return null;
  const code = doubleMetaphone(word)[0];
  return code.length >= 3 ? code : null;
}

const exactKey = (words: string[]) => [...words].sort().join(" ");

export function buildIndex(list: string, versionId: string, entries: IndexEntry[]): MatchIndex {
  const wordIds = new Map<string, number>();
  const vocabulary: string[] = [];
  const postings: number[][] = [];
  const names: IndexedName[] = [];
  const exact = new Map<string, number[]>();
  const add = (entry: number, published: string, alias: boolean, weak: boolean) => {
    const words = nameTokens(naturalOrder(published));
    if (words.length === 0) return;
    const index = names.length;
    if (weak) {
      const key = exactKey(words);
      exact.set(key, [...(exact.get(key) ?? []), index]);
      names.push({ entry, published, alias, tokens: [] });
      return;
    }
    const tokens = words.map((w) => {
      let id = wordIds.get(w);
      if (id === undefined) {
        id = vocabulary.push(w) - 1;
        wordIds.set(w, id);
        postings.push([]);
      }
      if (postings[id].at(-1) !== index) postings[id].push(index);
      return id;
    });
    names.push({ entry, published, alias, tokens });
  };
  entries.forEach((e, i) => {
    add(i, e.name, false, false);
    for (const a of e.aliases) add(i, a.name, true, a.quality === "low");
  });
  const letters = vocabulary.map((w) => Uint8Array.from(w, (c) => c.charCodeAt(0)));
  const masks = Int32Array.from(vocabulary, letterMask);
  const lengths: number[][] = [];
  vocabulary.forEach((w, id) => (lengths[w.length] ??= []).push(id));
  const byLength = Array.from(lengths, (ids) => Int32Array.from(ids ?? []));
  const sounds = vocabulary.map(sound);
  return { list, versionId, entries, names, vocabulary, postings, wordIds, letters, masks, byLength, sounds, exact, seen: new Map() };
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

/** A word's letters as a bit set (26 letters; digits share bits: only a bound). */
function letterMask(word: string): number {
  let mask = 0;
  for (let i = 0; i < word.length; i++) mask |= 1 << (word.charCodeAt(i) % 32);
  return mask;
}

function bits(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

function similarWordsSeen(index: MatchIndex, q: string): Map<number, number> {
  let found = index.seen.get(q);
  if (found) return found;
  found = similarWords(index, q);
  if (index.seen.size >= SEEN_WORDS) index.seen.delete(index.seen.keys().next().value!);
  index.seen.set(q, found);
  return found;
}

// Scratch letter counts for the scan (ASCII after the matching form): one query word at a time.
const queryCounts = new Int16Array(128);
const usedCounts = new Int16Array(128);

/**
 * Listed words similar to one query word: word id → similarity (at least WORD_MIN). Jaro
 * similarity is at most (m/|a| + m/|b| + 1) / 3 for m common letters, and Jaro-Winkler's prefix
 * boost adds at most 0.4 × (1 − Jaro): a listed word whose letter count with the query word
 * bounds it below WORD_MIN is skipped without computing it (most of the vocabulary).
 */
function similarWords(index: MatchIndex, q: string): Map<number, number> {
  const found = new Map<number, number>();
  const same = index.wordIds.get(q);
  if (same !== undefined) found.set(same, 1);
  const qn = q.length;
  const code = sound(q);
  for (let i = 0; i < qn; i++) queryCounts[q.charCodeAt(i) & 127]++;
  const { vocabulary, letters, masks, byLength } = index;
  const qmask = letterMask(q);
  // Only the lengths the matcher compares at all: words far longer or shorter are other names.
  for (let wn = 1; wn < byLength.length; wn++) {
    if (Math.abs(qn - wn) > Math.max(2, Math.floor(Math.min(qn, wn) / 2))) continue;
    const ids = byLength[wn];
    const ratio = (qn + wn) / (qn * wn);
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k];
      // Each letter one word has and the other lacks leaves at least one letter of it unmatched;
      // with the largest prefix boost, WORD_MIN needs (m / |q| + m / |w| + 1) / 3 >= 2/3.
      const wmask = masks[id];
      const bound = Math.min(wn - bits(wmask & ~qmask), qn - bits(qmask & ~wmask)) * ratio;
      if (bound < 1 || id === same) continue;
      // The Jaro-Winkler boost is 0.1 per letter of common prefix (at most 4): with a prefix of p
      // letters, WORD_MIN needs Jaro of at least (WORD_MIN - 0.1 p) / (1 - 0.1 p).
      const w = letters[id];
      let p = 0;
      while (p < 4 && p < qn && p < wn && w[p] === q.charCodeAt(p)) p++;
      const need = (3 * (WORD_MIN - 0.1 * p)) / (1 - 0.1 * p) - 1;
      if (bound < need) continue;
      let common = 0;
      for (let i = 0; i < wn; i++) {
        const c = w[i] & 127;
        if (usedCounts[c] < queryCounts[c]) {
          usedCounts[c]++;
          common++;
        }
      }
      for (let i = 0; i < wn; i++) usedCounts[w[i] & 127] = 0;
      if (common * ratio < need) continue;
      const word = vocabulary[id];
      const sim = jaroWinkler(q, word);
      if (sim < WORD_MIN) continue;
      // Same sound, unless one word only extends the other ("martin"/"martinez": another name).
      if (code !== null && index.sounds[id] === code && !word.startsWith(q) && !q.startsWith(word)) found.set(id, Math.max(sim, SAME_SOUND));
      // Jaro-Winkler rewards a shared prefix: words two or more letters apart in length are
      // usually different names ("lucia"/"luciano"), not a typo, and weigh less.
      else found.set(id, Math.abs(qn - wn) >= 2 ? sim * 0.9 : sim);
    }
  }
  for (let i = 0; i < qn; i++) queryCounts[q.charCodeAt(i) & 127] = 0;
  return found;
}

/**
 * Scores every listed individual whose name shares at least two words (or the only word) with the
 * subject's, strongest first; only those at or above `minScore` are returned. A weak alias counts
 * only when its words are exactly the subject's (any order).
 */
export function matchSubject(index: MatchIndex, subject: MatchSubject, minScore: number): Candidate[] {
  const first = nameTokens(subject.firstName);
  const query = [...first, ...nameTokens(subject.lastName)].slice(0, 30);
  if (query.length === 0) return [];
  // Similar listed words per query word (initials find none: they only pair within a candidate),
  // and which query words each listed name shares.
  const similar = query.map((q) => (q.length > 1 ? similarWordsSeen(index, q) : new Map<number, number>()));
  // Which query words each listed name shares, as bits per name (a scratch array of the index,
  // cleared after use: a Map here was most of the time for names with common words like "al").
  const masks = (index.shared ??= new Int32Array(index.names.length));
  const touched: number[] = [];
  similar.forEach((found, qi) => {
    const bit = 1 << qi;
    for (const id of found.keys()) {
      const names = index.postings[id];
      for (let k = 0; k < names.length; k++) {
        const n = names[k];
        if (masks[n] === 0) touched.push(n);
        masks[n] |= bit;
      }
    }
  });
  const shared = touched.map((n) => [n, masks[n]] as const);
  for (const n of touched) masks[n] = 0;
  const full = query.filter((q) => q.length > 1).length;
  const needed = Math.max(1, Math.min(2, full));
  const best = new Map<number, Candidate>();
  const consider = (n: number, nameScore: number, pairedQuery: number[]) => {
    const name = index.names[n];
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
    if (score < minScore) return;
    const current = best.get(name.entry);
    if (!current || current.score < score) {
      best.set(name.entry, { entry, matchedName: name.published, matchedAlias: name.alias, nameScore, score, agreed, differed });
    }
  };
  // A query word no listed word of a name resembles scores 0 there (an initial at most INITIAL):
  // the shared words' share of the query's letters bounds the name's score, so a name that shares
  // only short words ("al", "abd" of a long name) is skipped before it is scored.
  const queryLength = query.reduce((sum, q) => sum + q.length, 0);
  const initials = query.reduce((sum, q) => sum + (q.length === 1 ? INITIAL : 0), 0);
  for (const [n, mask] of shared) {
    if (popcount(mask) < needed) continue;
    let bound = initials;
    for (let qi = 0; qi < query.length; qi++) if (mask & (1 << qi)) bound += query[qi].length;
    if (bound / queryLength < minScore) continue;
    const { score, pairedQuery } = scoreName(query, index.names[n].tokens, index.vocabulary, similar);
    consider(n, score, pairedQuery);
  }
  for (const n of index.exact.get(exactKey(query)) ?? [])
    consider(
      n,
      1,
      query.map(() => 1),
    );
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
  query.forEach((q, qi) =>
    tokens.forEach((id, ti) => {
      const word = vocabulary[id];
      // An initial ("Manuel A. Noriega"), on either side, pairs with a word it begins.
      if (q.length === 1 || word.length === 1) {
        if (q[0] === word[0]) pairs.push([qi, ti, q === word ? 1 : INITIAL]);
        return;
      }
      const sim = similar[qi].get(id);
      if (sim === undefined) return;
      // Below 0.9 a pair is more likely two different words ("maria"/"mark") than a typo: it weighs less.
      pairs.push([qi, ti, sim >= 0.9 ? sim : sim - 2 * (0.9 - sim)]);
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
