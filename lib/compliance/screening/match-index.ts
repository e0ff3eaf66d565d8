import doubleMetaphone from "talisman/phonetics/double-metaphone";
import jaroWinkler from "talisman/metrics/jaro-winkler";
import typingSlips from "@/data/screening/typing-slips.json";
import { alternativeSkeleton, alternativeSpelling, CLASS_SPELLINGS, isTitle, nameWords, naturalOrder, skeleton, surnameWords } from "./names";

/**
 * In-memory matcher over one list version's individuals (docs/decisions.md, "Sanctions
 * screening"), built to hold against an evader's edits, not only a careless typist's:
 *
 * - Words are compared by Jaro-Winkler (talisman), by edit distance (one edit in a word of 6+
 *   letters, two in 8+), by sound (Double Metaphone) and by transliteration skeleton
 *   (data/screening/transliteration.json: Prigojine/Prigozhin, Haniyeh/Haniya, Hassan/Hasan).
 * - Spacing and punctuation: two neighbouring words are also one word, on both sides, so
 *   "Guz.man", "Guz man", "GuzmanLoera" and "CaroQuintero" meet "GUZMAN LOERA" and "CARO QUINTERO";
 *   a name's letters with every separator removed are looked up whole as well.
 * - Order and fields: words pair wherever they stand, whatever field they were typed in.
 * - Extra words: a name that carries all of an entry's surname words and one of its given names
 *   (or its initial) matches it whatever else it carries (titles, ranks, nicknames, more given
 *   names); where the list does not say which words are the surname, all of the entry's words.
 *
 * - A date of birth that agrees with an entry's (the same day, or the published month, year or
 *   range) lets a looser likeness make a case (matchWithBirthDate): two moves at once, a typo in a
 *   split or transliterated word, short names a vowel apart, a surname and a given name whatever
 *   else either name has; with the nationality agreeing as well, vowels folded and the edits of
 *   the day; and slips (a key beside the intended one, a vowel's other spelling, a final vowel,
 *   data/screening/typing-slips.json) at half an edit where the whole of both names is found word
 *   for word. Never a HIT; never without the date.
 *
 * Candidates come from a scan of the distinct listed words (most skipped by a letter-count bound
 * before any Jaro-Winkler), cached per query word, not of every name. Weak aliases (UN "Low"
 * quality, names in their original script) are not scanned: they match only exactly.
 *
 * The matcher scores names only; what a score and a date of birth decide is `verdict` below.
 */

/** What the matcher needs of an entry (lib/compliance/screening/entity.ts SanctionedEntry, as stored). */
export interface IndexEntry {
  entryId: string;
  reference?: string | null;
  name: string;
  programs: string[];
  datesOfBirth: string[];
  nationalities: string[];
  aliases: { name: string; quality?: "low" | null }[];
}

/** A run of a listed name's words: one word, or two neighbours written as one. */
interface Unit {
  word: number;
  /** The name's word positions it covers, as bits. */
  mask: number;
}

interface IndexedName {
  entry: number;
  /** The name as published (primary or alias). */
  published: string;
  alias: boolean;
  /** Word ids in natural order (given names first). */
  tokens: number[];
  /** Each word, then each pair of neighbours joined. */
  units: Unit[];
  /** Positions of the surname's words as bits; 0 where the list does not say ("SURNAME, Given"). */
  surname: number;
  /** Positions of titles and honorifics ("Shaykh"): never needed, paired only when written joined to a word. */
  optional: number;
  /** Positions of one-letter words (initials): they pair by first letter, not through the postings. */
  initials: number;
  /** Its words other than titles, separators removed, and their letters as bits (the looser comparison's listedForm). */
  letters: string;
  lettersMask: number;
}

export interface MatchIndex {
  list: string;
  versionId: string;
  entries: IndexEntry[];
  names: IndexedName[];
  vocabulary: string[];
  /**
   * Word id → the names that contain it (as a word or as two joined neighbours), packed: the
   * postings of word `id` are at postingStarts[id] up to postingStarts[id + 1] of postingNames,
   * and postingMasks says which of that name's word positions the word covers (as bits), so a
   * name's best possible score is bounded before it is scored (scoreBound).
   */
  postingStarts: Int32Array;
  postingNames: Int32Array;
  postingMasks: Int32Array;
  /** Word → its id. */
  wordIds: Map<string, number>;
  /**
   * Every word's letters as char codes, one array, words of one length together (the scan of one
   * length reads it in order; where a word's letters start is its bucket's OFFSET): the
   * letter-count bound of the scan without an array per word.
   */
  text: Uint8Array;
  /** Word id → the set of its letters as bits (a-z, 0-9 folded in), the first and cheapest bound. */
  masks: Int32Array;
  /** Word id → the set of its letters written twice or more, as bits: with `masks`, a tighter bound on common letters (commonBound). */
  repeats: Int32Array;
  /** Word length → the words of that length. */
  byLength: Bucket[];
  /** Word length → the words that are only ever two listed words joined ("caroquintero"): compared by spelling only. */
  joinedByLength: Bucket[];
  /** Word id → its Double Metaphone code (null when too short to tell names apart). */
  sounds: (string | null)[];
  /** Transliteration skeleton → the words that have it. */
  skeletons: Map<string, number[]>;
  /** A name's letters with no separators, in natural and in published order → the names. */
  joined: Map<string, number[]>;
  /** Weak aliases by their words, sorted and joined: matched only when the subject's words are the same. */
  exact: Map<string, number[]>;
  /**
   * The similar listed words of the query words seen lately (subjects' words repeat: given names,
   * common surnames), so a scan runs once per word, not once per screening. Bounded: the oldest
   * go first.
   */
  seen: Map<string, Map<number, number>>;
  /** Scratch: per name, the query positions it shares (all zero between screenings). */
  shared?: Int32Array;
  /** Scratch: per name, its own positions the shared words cover (all zero between screenings). */
  covered?: Int32Array;
  /** Scratch: the names a screening's words touched, in the order found (matchSubject's first `touchedCount`). */
  touched?: Int32Array;
  /** Word id → its transliteration skeleton (the looser comparison of names whose date of birth agrees). */
  wordSkeletons: string[];
  /** Word id → its skeleton's letters as bits (letterMask): the looser comparison's first bound. */
  skeletonMasks: Int32Array;
  /**
   * Word id → the rest of its forms in the looser comparison (LooseForm), computed once with the
   * index rather than for each name compared: its skeleton with vowels folded (foldVowels), its
   * alternative spelling (alternativeSpelling) and that spelling's skeleton (the word and its
   * skeleton for the many words that have none), and their letter masks.
   */
  foldedSkeletons: string[];
  foldedMasks: Int32Array;
  alternativeWords: string[];
  alternativeSkeletons: string[];
  alternativeMasks: Int32Array;
  alternativeSkeletonMasks: Int32Array;
  /** The same forms as the looser comparison reads them (WordForms): a listed name's form is its words' ids, no copies. */
  forms: WordForms;
  /** Entry → its first name's position in `names`: an entry's names (primary, aliases) are those up to the next entry's. */
  firstNames: Int32Array;
  /**
   * A published date of birth as a key → the entries with it: "YYYY-MM-DD", "YYYY-MM", and "YYYY"
   * for a year or each year of a range. A subject's date looks up its day (exact), month and year
   * (partial), as birthDateAgreement compares them.
   */
  births: Map<string, number[]>;
}

/**
 * The words of one length as the scans read them: their ids, and per word, side by side in one
 * array (read in order, not through the ids), its letter mask, repeat mask, letters beyond their
 * second occurrence (commonBound) and where its letters start in `text`. And, for the bit-parallel
 * filter (pick), per letter (as letterMask folds them) a bit per word that has it, and one per word
 * that begins with it: `lanes` 32-bit lanes per letter.
 */
interface Bucket {
  ids: Int32Array;
  words: Int32Array;
  lanes: number;
  letters: Int32Array;
  initials: Int32Array;
}
const MASK = 0;
const REPEATS = 1;
const BEYOND = 2;
const OFFSET = 3;
const STRIDE = 4;

/** Query words whose similar listed words an index keeps (a few hundred bytes each). */
const SEEN_WORDS = 5000;
/** A subject's words beyond this many are not matched (bit masks of positions). */
const MAX_WORDS = 24;
/** A subject's name fields, in the order the query holds their words. */
const NAME_FIELDS = ["firstName", "middleNames", "lastName"] as const;

export interface MatchSubject {
  firstName: string;
  middleNames?: string[] | null;
  lastName: string;
  dateOfBirth?: string | null;
  nationality?: string | null;
}

/** How the subject's date of birth compares with the entry's published ones. */
export type BirthDateAgreement = "exact" | "partial" | "differs" | "unknown";

export interface Candidate {
  entry: IndexEntry;
  matchedName: string;
  matchedAlias: boolean;
  /** Name similarity, 0..1. */
  nameScore: number;
  /**
   * The listed name is there as listed: every word of both names paired with a like word (0.9 or
   * more), or the listed name contained in the subject's (see scoreName). Only such a name is a
   * listed name whatever the date of birth; otherwise it is a partial name.
   */
  whole: boolean;
  birthDate: BirthDateAgreement;
  agreed: string[];
  differed: string[];
}

/** A word pairs with a listed word only from this similarity on (below, it counts as unmatched). */
const WORD_MIN = 0.8;
/** What similarWords' bound asks of (m / |q| + m / |w|) for Jaro-Winkler to reach WORD_MIN without a common prefix: 3 × WORD_MIN − 1. */
const NO_PREFIX_NEED = 3 * WORD_MIN - 1;
/**
 * Two similar words (Jaro-Winkler at least WORD_MIN) that also sound the same (equal Double
 * Metaphone code of three or more letters) are at least this similar. Sound alone never makes a
 * pair: "aminu"/"ayman" or "omar"/"amir" share a code but are different names.
 */
const SAME_SOUND = 0.9;
/** Two spellings of one name (same transliteration skeleton). */
const SAME_SKELETON = 0.95;
/** Words within the edit budget of each other (one edit from 4 letters, two from 8). */
const WITHIN_EDITS = 0.9;
/** Share of the score lost when none of a listed name's words are paired (scaled by the unpaired share). */
const UNPAIRED_PENALTY = 0.3;
/** A one-letter word is an initial: it pairs with a word it begins, at this similarity. */
const INITIAL = 0.9;
/** A listed word counts as present in a subject's name from this similarity on (the rule of contained names). */
const PRESENT = 0.9;
/**
 * Two neighbouring words written as one pair only as that word's spelling: the same word or
 * skeleton, or within the edit budget ("uzmanlora" for "guzmanloera"), never merely a near
 * neighbour by Jaro-Winkler ("linda" is not "lin dwe").
 */
const JOINED_MIN = SAME_SKELETON;
/** A word that only extends another ("abbasi"/"abbas"): below 0.9, so weak. */
const EXTENDED = 0.88;
/** Two short words one letter apart after the first ("lai"/"lei"). */
const SHORT_WORD = 0.8;
/** A word this long that is not listed is tried as two listed words of 4+ letters written as one ("abdeljuma"). */
const SPLIT_FROM = 8;

/** The Double Metaphone code that stands for a word's sound, or null when too short to tell names apart. */
function sound(word: string): string | null {
  if (word.length < 3) return null;
  const code = doubleMetaphone(word)[0];
  return code.length >= 3 ? code : null;
}

/**
 * Edits that keep two words one name: one from 6 letters, two from 8 (the shorter word decides).
 * In shorter words one edit is often another name ("mary"/"mark", "omar"/"amar"): Jaro-Winkler
 * alone judges them.
 */
function editBudget(a: number, b: number): number {
  const n = Math.min(a, b);
  return n >= 8 ? 2 : n >= 6 ? 1 : 0;
}

// Scratch rows of editDistance (called for thousands of word pairs per cold screening: no arrays allocated per call).
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/** Optimal string alignment distance (Damerau-Levenshtein without repeated edits of a substring), stopping past `max`. */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (b.length >= rows[0].length) rows = rows.map(() => new Int32Array(2 * b.length + 2));
  let prev2 = rows[0];
  let prev = rows[1];
  let row = rows[2];
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let best = i;
    const ai = a.charCodeAt(i - 1);
    const aBefore = i > 1 ? a.charCodeAt(i - 2) : -1;
    for (let j = 1; j <= b.length; j++) {
      const bj = b.charCodeAt(j - 1);
      let d = prev[j - 1] + (ai === bj ? 0 : 1);
      if (prev[j] + 1 < d) d = prev[j] + 1;
      if (row[j - 1] + 1 < d) d = row[j - 1] + 1;
      if (j > 1 && aBefore === bj && ai === b.charCodeAt(j - 2) && prev2[j - 2] + 1 < d) d = prev2[j - 2] + 1;
      row[j] = d;
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
    const spare = prev2;
    prev2 = prev;
    prev = row;
    row = spare;
  }
  return prev[b.length];
}

/**
 * A weak alias's key: its words other than titles, sorted, joined by spaces. Loops, not filter /
 * sort / join: see lettersOf.
 */
function exactKey(words: string[]): string {
  const sorted: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (isTitle(word)) continue;
    let at = sorted.length;
    sorted.push(word);
    while (at > 0 && sorted[at - 1] > word) {
      sorted[at] = sorted[at - 1];
      at--;
    }
    sorted[at] = word;
  }
  let key = "";
  for (let i = 0; i < sorted.length; i++) key += i === 0 ? sorted[i] : ` ${sorted[i]}`;
  return key;
}

export function buildIndex(list: string, versionId: string, entries: IndexEntry[]): MatchIndex {
  const wordIds = new Map<string, number>();
  const vocabulary: string[] = [];
  const postings: number[][] = [];
  const postingMaskLists: number[][] = [];
  const names: IndexedName[] = [];
  const exact = new Map<string, number[]>();
  const joined = new Map<string, number[]>();
  const push = <K>(map: Map<K, number[]>, key: K, value: number) => {
    const values = map.get(key);
    if (!values) map.set(key, [value]);
    else if (values.at(-1) !== value) values.push(value);
  };
  const wordId = (w: string, name: number, mask: number) => {
    let id = wordIds.get(w);
    if (id === undefined) {
      id = vocabulary.push(w) - 1;
      wordIds.set(w, id);
      postings.push([]);
      postingMaskLists.push([]);
    }
    if (postings[id].at(-1) !== name) {
      postings[id].push(name);
      postingMaskLists[id].push(mask);
    } else postingMaskLists[id][postingMaskLists[id].length - 1] |= mask;
    return id;
  };
  const add = (entry: number, published: string, alias: boolean, weak: boolean) => {
    const words = nameWords(naturalOrder(published)).slice(0, MAX_WORDS);
    const required = words.filter((w) => !isTitle(w));
    if (required.length === 0) return;
    const index = names.length;
    if (weak) {
      push(exact, exactKey(words), index);
      names.push({ entry, published, alias, tokens: [], units: [], surname: 0, optional: 0, initials: 0, letters: "", lettersMask: 0 });
      return;
    }
    const tokens = words.map((w, i) => wordId(w, index, 1 << i));
    let initials = 0;
    words.forEach((w, i) => w.length === 1 && (initials |= 1 << i));
    let optional = 0;
    const units: Unit[] = [];
    tokens.forEach((word, i) => (isTitle(words[i]) ? (optional |= 1 << i) : units.push({ word, mask: 1 << i })));
    for (let i = 0; i + 1 < words.length; i++) units.push({ word: wordId(words[i] + words[i + 1], index, 3 << i), mask: 3 << i });
    const surnameCount = surnameWords(published) ?? 0;
    const surname = surnameCount > 0 && surnameCount < words.length ? ((1 << surnameCount) - 1) << (words.length - surnameCount) : 0;
    const letters = required.join("");
    names.push({ entry, published, alias, tokens, units, surname, optional, initials, letters, lettersMask: letterMask(letters) });
    const surnameFirst = surname ? [...words.slice(words.length - surnameCount), ...words.slice(0, words.length - surnameCount)] : [];
    for (const order of [words, surnameFirst]) {
      if (order.length === 0) continue;
      push(joined, order.join(""), index);
      push(joined, order.filter((w) => !isTitle(w)).join(""), index);
    }
  };
  const firstNames = new Int32Array(entries.length + 1);
  const births = new Map<string, number[]>();
  entries.forEach((e, i) => {
    firstNames[i] = names.length;
    add(i, e.name, false, false);
    for (const a of e.aliases) add(i, a.name, true, a.quality === "low");
    firstNames[i + 1] = names.length;
    for (const published of e.datesOfBirth) {
      const range = /^(\d{4})\/(\d{4})$/.exec(published);
      if (!range) push(births, published, i);
      else for (let y = Number(range[1]); y <= Number(range[2]) && y - Number(range[1]) < 20; y++) push(births, String(y), i);
    }
  });
  const masks = Int32Array.from(vocabulary, letterMask);
  const repeats = Int32Array.from(vocabulary, repeatMask);
  // Words only ever two listed words joined pair only as a spelling of them (joinedPair): the scan
  // by Jaro-Winkler skips them, the cheaper scan by edit budget finds them.
  const single = new Uint8Array(vocabulary.length);
  for (const name of names) for (const u of name.units) if (bits(u.mask) === 1) single[u.word] = 1;
  for (const name of names) name.tokens.forEach((id) => (single[id] = 1));
  const lengths: number[][] = [];
  const joinedLengths: number[][] = [];
  vocabulary.forEach((w, id) => ((single[id] ? lengths : joinedLengths)[w.length] ??= []).push(id));
  const text = new Uint8Array(vocabulary.reduce((n, w) => n + w.length, 0));
  let at = 0;
  const bucket = (list: number[] | undefined): Bucket => {
    const ids = Int32Array.from(list ?? []);
    const words = new Int32Array(ids.length * STRIDE);
    const lanes = (ids.length + 31) >>> 5;
    const letters = new Int32Array(32 * lanes);
    const initials = new Int32Array(32 * lanes);
    ids.forEach((id, k) => {
      const w = vocabulary[id];
      for (let m = masks[id]; m !== 0; m &= m - 1) letters[(31 - Math.clz32(m & -m)) * lanes + (k >>> 5)] |= 1 << (k & 31);
      if (w.length > 0) initials[(w.charCodeAt(0) % 32) * lanes + (k >>> 5)] |= 1 << (k & 31);
      words[k * STRIDE + OFFSET] = at;
      for (let i = 0; i < w.length; i++) text[at++] = w.charCodeAt(i);
      words[k * STRIDE + MASK] = masks[id];
      words[k * STRIDE + REPEATS] = repeats[id];
      words[k * STRIDE + BEYOND] = w.length - bits(masks[id]) - bits(repeats[id]);
    });
    return { ids, words, lanes, letters, initials };
  };
  const byLength = Array.from(lengths, bucket);
  const joinedByLength = Array.from(joinedLengths, bucket);
  const postingStarts = new Int32Array(vocabulary.length + 1);
  postings.forEach((p, id) => (postingStarts[id + 1] = postingStarts[id] + p.length));
  const postingNames = Int32Array.from(postings.flat());
  const postingMasks = Int32Array.from(postingMaskLists.flat());
  const sounds = vocabulary.map(sound);
  const skeletons = new Map<string, number[]>();
  const wordSkeletons = vocabulary.map(skeleton);
  vocabulary.forEach((w, id) => w.length > 1 && push(skeletons, wordSkeletons[id], id));
  const skeletonMasks = Int32Array.from(wordSkeletons, letterMask);
  // The same text as the word or skeleton is kept as that string, not a copy (most words have no alternative).
  const kept = (form: string, as: string) => (form === as ? as : form);
  const foldedSkeletons = wordSkeletons.map((k) => kept(foldVowels(k), k));
  const alternativeWords = vocabulary.map((w) => kept(alternativeSpelling(w), w));
  const alternativeSkeletons = alternativeWords.map((a, id) => kept(alternativeSkeleton(a), wordSkeletons[id]));
  const foldedMasks = Int32Array.from(foldedSkeletons, letterMask);
  const alternativeMasks = Int32Array.from(alternativeWords, letterMask);
  const alternativeSkeletonMasks = Int32Array.from(alternativeSkeletons, letterMask);
  const forms: WordForms = {
    words: vocabulary,
    skeletons: wordSkeletons,
    folded: foldedSkeletons,
    alternatives: alternativeWords,
    alternativeSkeletons,
    alternate: Uint8Array.from(vocabulary, (w, id) => Number(alternativeWords[id] !== w || alternativeSkeletons[id] !== wordSkeletons[id])),
    masks,
    skeletonMasks,
    foldedMasks,
    alternativeMasks,
    alternativeSkeletonMasks,
  };
  return {
    list,
    versionId,
    entries,
    names,
    vocabulary,
    postingStarts,
    postingNames,
    postingMasks,
    wordIds,
    text,
    masks,
    repeats,
    byLength,
    joinedByLength,
    sounds,
    skeletons,
    joined,
    exact,
    seen: new Map(),
    wordSkeletons,
    skeletonMasks,
    foldedSkeletons,
    foldedMasks,
    alternativeWords,
    alternativeSkeletons,
    alternativeMasks,
    alternativeSkeletonMasks,
    forms,
    firstNames,
    births,
  };
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

/** How a subject's date of birth compares with an entry's: the same day, a compatible year or month, another, or nothing to compare. */
export function birthDateAgreement(published: string[], dateOfBirth: string | null | undefined): BirthDateAgreement {
  if (!dateOfBirth || published.length === 0) return "unknown";
  if (published.includes(dateOfBirth)) return "exact";
  return published.some((d) => sameBirthDate(d, dateOfBirth)) ? "partial" : "differs";
}

/** A word's letters as a bit set (26 letters; digits share bits: only a bound). */
function letterMask(word: string): number {
  let mask = 0;
  for (let i = 0; i < word.length; i++) mask |= 1 << (word.charCodeAt(i) % 32);
  return mask;
}

/** The letters (folded as letterMask) a word has twice or more, as bits. */
function repeatMask(word: string): number {
  let once = 0;
  let twice = 0;
  for (let i = 0; i < word.length; i++) {
    const bit = 1 << (word.charCodeAt(i) % 32);
    twice |= once & bit;
    once |= bit;
  }
  return twice;
}

/**
 * At most how many letters two words have in common (counted with repeats, as the scans count
 * them), from their letter masks and repeat masks alone: per letter, min(a, b) is one if both have
 * it, one more if both have it twice, plus what either has beyond two. Lets the scans skip most
 * words without reading their letters. The query word's masks and letters beyond two against the
 * bucket's word at `b` (Bucket).
 */
function commonBound(qmask: number, qrepeats: number, qbeyond: number, words: Int32Array, b: number): number {
  return bits(qmask & words[b + MASK]) + bits(qrepeats & words[b + REPEATS]) + Math.min(qbeyond, words[b + BEYOND]);
}

function bits(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

// Scratch of pick: the positions in a bucket of the words a scan reads.
let picked = new Int32Array(4096);

/**
 * The positions (in order) of a bucket's words that have at least `least` of the query's letters
 * (qmask, each letter once, as letterMask counts them), or at least `leastSameInitial` where the
 * word begins with the query's first letter (`initial`, as letterMask folds it; -1 for none): a
 * bit-parallel count over the bucket's letter bits, 32 words at a time (a five-bit counter per
 * word, kept as five lanes of bits). The scans read only these words: from their own bounds,
 * every word those let through is among them.
 */
function pick(bucket: Bucket, qmask: number, initial: number, least: number, leastSameInitial: number): number {
  const { lanes, letters, initials } = bucket;
  const n = bucket.ids.length;
  if (picked.length < n) picked = new Int32Array(2 * n);
  let count = 0;
  for (let lane = 0; lane < lanes; lane++) {
    let c0 = 0;
    let c1 = 0;
    let c2 = 0;
    let c3 = 0;
    let c4 = 0;
    for (let m = qmask; m !== 0; m &= m - 1) {
      let x = letters[(31 - Math.clz32(m & -m)) * lanes + lane];
      let carry = c0 & x;
      c0 ^= x;
      x = carry;
      carry = c1 & x;
      c1 ^= x;
      x = carry;
      carry = c2 & x;
      c2 ^= x;
      x = carry;
      carry = c3 & x;
      c3 ^= x;
      c4 |= carry;
    }
    let found = atLeast(least, c0, c1, c2, c3, c4);
    if (initial >= 0) found |= initials[initial * lanes + lane] & atLeast(leastSameInitial, c0, c1, c2, c3, c4);
    // The last lane's bits past the bucket's words.
    if (lane === lanes - 1 && (n & 31) !== 0) found &= (1 << (n & 31)) - 1;
    for (; found !== 0; found &= found - 1) picked[count++] = (lane << 5) + (31 - Math.clz32(found & -found));
  }
  return count;
}

/** The bits of the words whose five-bit count (c4..c0, one bit of each per word) is at least `least`. */
function atLeast(least: number, c0: number, c1: number, c2: number, c3: number, c4: number): number {
  if (least <= 0) return -1;
  if (least > 31) return 0;
  // From the highest bit down: `greater` where the count's bits so far exceed least's, `equal`
  // where they match them. `m` is all ones where least has the bit: a count without it falls
  // behind (leaves `equal`), a count with it where least has none gets ahead.
  let greater = 0;
  let equal = -1;
  let m = -((least >> 4) & 1);
  greater |= equal & c4 & ~m;
  equal &= ~(c4 ^ m);
  m = -((least >> 3) & 1);
  greater |= equal & c3 & ~m;
  equal &= ~(c3 ^ m);
  m = -((least >> 2) & 1);
  greater |= equal & c2 & ~m;
  equal &= ~(c2 ^ m);
  m = -((least >> 1) & 1);
  greater |= equal & c1 & ~m;
  equal &= ~(c1 ^ m);
  m = -(least & 1);
  greater |= equal & c0 & ~m;
  equal &= ~(c0 ^ m);
  return greater | equal;
}

/** The fewest of the query's letters (each once) a word needs in common for its commonBound to reach `bound`: the other two terms at their largest. */
function leastLetters(bound: number, qrepeats: number, qbeyond: number): number {
  return Math.ceil(bound - bits(qrepeats) - qbeyond - 1e-6);
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
 * Listed words similar to one query word: word id → similarity. Jaro similarity is at most
 * (m/|a| + m/|b| + 1) / 3 for m common letters, and Jaro-Winkler's prefix boost adds at most
 * 0.4 × (1 − Jaro): a listed word whose letter count with the query word bounds it below
 * WORD_MIN is skipped without computing it (most of the vocabulary). Words within the edit budget
 * have enough letters in common to pass that bound; spellings with the same skeleton are looked up.
 */
function similarWords(index: MatchIndex, q: string): Map<number, number> {
  const found = new Map<number, number>();
  const same = index.wordIds.get(q);
  if (same !== undefined) found.set(same, 1);
  for (const id of index.skeletons.get(skeleton(q)) ?? []) if (id !== same) found.set(id, SAME_SKELETON);
  const qn = q.length;
  const code = sound(q);
  for (let i = 0; i < qn; i++) queryCounts[q.charCodeAt(i) & 127]++;
  const { vocabulary, text, byLength } = index;
  const qmask = letterMask(q);
  const qrepeats = repeatMask(q);
  const qbeyond = qn - bits(qmask) - bits(qrepeats);
  // Only the lengths the matcher compares at all: words far longer or shorter are other names.
  for (let wn = 2; wn < byLength.length; wn++) {
    if (Math.abs(qn - wn) > Math.max(2, Math.floor(Math.min(qn, wn) / 2))) continue;
    const bucket = byLength[wn];
    const { ids, words } = bucket;
    const ratio = (qn + wn) / (qn * wn);
    const budget = editBudget(qn, wn);
    // The bounds below need commonBound × ratio of at least 1 with a common first letter, and of
    // at least NO_PREFIX_NEED without one: only words with that many of q's letters are read.
    const count = pick(
      bucket,
      qmask,
      qn > 0 ? q.charCodeAt(0) % 32 : -1,
      leastLetters(NO_PREFIX_NEED / ratio, qrepeats, qbeyond),
      leastLetters(1 / ratio, qrepeats, qbeyond),
    );
    for (let at = 0; at < count; at++) {
      const k = picked[at];
      const b = k * STRIDE;
      // At most commonBound letters in common; with the largest prefix boost, WORD_MIN needs
      // (m / |q| + m / |w| + 1) / 3 >= 2/3.
      const bound = commonBound(qmask, qrepeats, qbeyond, words, b) * ratio;
      if (bound < 1) continue;
      const id = ids[k];
      if (id === same) continue;
      // The Jaro-Winkler boost is 0.1 per letter of common prefix (at most 4): with a prefix of p
      // letters, WORD_MIN needs Jaro of at least (WORD_MIN - 0.1 p) / (1 - 0.1 p).
      const o = words[b + OFFSET];
      let p = 0;
      while (p < 4 && p < qn && p < wn && text[o + p] === q.charCodeAt(p)) p++;
      const need = (3 * (WORD_MIN - 0.1 * p)) / (1 - 0.1 * p) - 1;
      if (bound < need) continue;
      let common = 0;
      for (let i = o; i < o + wn; i++) {
        const c = text[i] & 127;
        if (usedCounts[c] < queryCounts[c]) {
          usedCounts[c]++;
          common++;
        }
      }
      for (let i = o; i < o + wn; i++) usedCounts[text[i] & 127] = 0;
      if (common * ratio < need) continue;
      const word = vocabulary[id];
      let sim = jaroWinkler(q, word);
      if (sim < WORD_MIN) {
        // Words of two or three letters ("lai"/"lei", "soe"/"sue"): one letter after the first
        // changed is a transliteration often enough to count, weakly.
        if (qn === wn && qn <= 3 && q[0] === word[0] && editDistance(q, word, 1) === 1) found.set(id, SHORT_WORD);
        continue;
      }
      // One word only extending the other is usually another name ("abbas"/"abbasi",
      // "daniel"/"daniela", "martin"/"martinez"): never the same sound, and weak.
      const extends_ = word.startsWith(q) || q.startsWith(word);
      if (extends_) sim = Math.min(sim, EXTENDED);
      else if (code !== null && index.sounds[id] === code) sim = Math.max(sim, SAME_SOUND);
      // Jaro-Winkler rewards a shared prefix: words two or more letters apart in length are
      // usually different names ("lucia"/"luciano"), not a typo, and weigh less.
      else if (Math.abs(qn - wn) >= 2) sim *= 0.9;
      if (sim < WITHIN_EDITS && budget > 0 && editDistance(q, word, budget) <= budget) sim = WITHIN_EDITS;
      if (sim > (found.get(id) ?? 0)) found.set(id, sim);
    }
  }
  withinBudget(index, q, qmask, index.joinedByLength, found);
  for (let i = 0; i < qn; i++) queryCounts[q.charCodeAt(i) & 127] = 0;
  return found;
}

/** A long word no list has, as the two listed words it joins ("abdeljuma" → "abdel juma"), or as it is. */
function splitJoined(index: MatchIndex, word: string): string[] {
  if (word.length < SPLIT_FROM || index.wordIds.has(word) || isTitle(word)) return [word];
  for (let k = 4; k <= word.length - 4; k++) {
    const head = word.slice(0, k);
    const tail = word.slice(k);
    if (index.wordIds.has(head) && index.wordIds.has(tail) && !isTitle(head) && !isTitle(tail)) return [head, tail];
  }
  return [word];
}

/** Whether two words, one or both of them two joined, are one word's spellings (JOINED_MIN). */
function joinedPair(a: string, b: string, sim: number): boolean {
  if (sim >= JOINED_MIN) return true;
  const budget = editBudget(a.length, b.length);
  return budget > 0 && editDistance(a, b, budget) <= budget;
}

/**
 * Listed words that two joined subject words spell (JOINED_MIN): the same word or skeleton, or
 * within the edit budget. Cheaper than similarWords' scan: only the lengths the budget allows, and
 * only words with all but `budget` of the letters in common.
 */
function joinedWords(index: MatchIndex, q: string): Map<number, number> {
  const found = new Map<number, number>();
  const same = index.wordIds.get(q);
  if (same !== undefined) found.set(same, 1);
  for (const id of index.skeletons.get(skeleton(q)) ?? []) if (!found.has(id)) found.set(id, SAME_SKELETON);
  const qn = q.length;
  if (editBudget(qn, qn) === 0) return found;
  for (let i = 0; i < qn; i++) queryCounts[q.charCodeAt(i) & 127]++;
  withinBudget(index, q, letterMask(q), index.byLength, found);
  withinBudget(index, q, letterMask(q), index.joinedByLength, found);
  for (let i = 0; i < qn; i++) queryCounts[q.charCodeAt(i) & 127] = 0;
  return found;
}

/**
 * The words of `buckets` within the edit budget of `q` (queryCounts holding q's letters), at least
 * WITHIN_EDITS: only the lengths the budget allows, and only words with all but `budget` of the
 * letters in common.
 */
function withinBudget(index: MatchIndex, q: string, qmask: number, buckets: Bucket[], found: Map<number, number>) {
  const qn = q.length;
  const budget = editBudget(qn, qn);
  if (budget === 0) return;
  const qrepeats = repeatMask(q);
  const qbeyond = qn - bits(qmask) - bits(qrepeats);
  const { text } = index;
  for (let wn = Math.max(2, qn - budget); wn <= qn + budget && wn < buckets.length; wn++) {
    const allowed = editBudget(qn, wn);
    if (allowed === 0) continue;
    const need = Math.max(qn, wn) - allowed;
    const bucket = buckets[wn];
    const { ids, words } = bucket;
    const least = leastLetters(need, qrepeats, qbeyond);
    const count = pick(bucket, qmask, -1, least, least);
    for (let at = 0; at < count; at++) {
      const k = picked[at];
      const b = k * STRIDE;
      // The cheap bounds first, the lookup in `found` only for the few words that pass them.
      const wmask = words[b + MASK];
      if (bits(wmask & ~qmask) > budget) continue;
      if (commonBound(qmask, qrepeats, qbeyond, words, b) < need) continue;
      const id = ids[k];
      if (found.has(id)) continue;
      const o = words[b + OFFSET];
      let common = 0;
      for (let i = o; i < o + wn; i++) {
        const c = text[i] & 127;
        if (usedCounts[c] < queryCounts[c]) {
          usedCounts[c]++;
          common++;
        }
      }
      for (let i = o; i < o + wn; i++) usedCounts[text[i] & 127] = 0;
      if (common < need) continue;
      const word = index.vocabulary[id];
      if (editDistance(q, word, allowed) <= allowed) found.set(id, Math.max(WITHIN_EDITS, jaroWinkler(q, word)));
    }
  }
}

function joinedWordsSeen(index: MatchIndex, q: string): Map<number, number> {
  const key = `+${q}`;
  let found = index.seen.get(key);
  if (found) return found;
  found = joinedWords(index, q);
  if (index.seen.size >= SEEN_WORDS) index.seen.delete(index.seen.keys().next().value!);
  index.seen.set(key, found);
  return found;
}

/** A run of the subject's words: one word, or two neighbours written as one. */
interface QueryUnit {
  text: string;
  mask: number;
  similar: Map<number, number>;
  /**
   * joinedPair's answers for this unit by listed word, as the screening meets them: a common word
   * ("muhammad", "abd") pairs with thousands of listed names, and the edit distance behind the
   * answer is the same for each.
   */
  joinable: Map<number, boolean>;
}

/**
 * Scores every listed individual whose name shares at least two words (or the only word) with the
 * subject's, strongest first; only those scoring at least `minScore` by name are returned. A weak
 * alias counts only when its words are exactly the subject's (any order).
 */
/**
 * A subject's words as typed: a capital inside a word starts a word ("AnGrein", "CaroQuintero" are
 * two words joined; the lists publish names in capitals or title case, never so).
 */
function typedWords(value: string): string[] {
  return nameWords(value.replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2"));
}

/**
 * The letters of the words of `fields` in order, separators removed, with or without titles.
 * A loop rather than flat / filter / join: those, inlined into matchSubject, are compiled for the
 * kinds of array they first meet, and arrays of other kinds (an empty middle-name field) made the
 * compiled matchSubject be thrown away hundreds of times in a process's first thousand screenings.
 */
function lettersOf(fields: string[][], titles: boolean): string {
  let letters = "";
  for (let f = 0; f < fields.length; f++) {
    const words = fields[f];
    for (let i = 0; i < words.length; i++) if (titles || !isTitle(words[i])) letters += words[i];
  }
  return letters;
}

export function matchSubject(index: MatchIndex, subject: MatchSubject, minScore: number): Candidate[] {
  const split = (words: string[]) => words.flatMap((w) => splitJoined(index, w));
  const fields = [split(typedWords(subject.firstName)), split((subject.middleNames ?? []).flatMap(typedWords)), split(typedWords(subject.lastName))];
  // By push (fields.flat() makes a holey or a packed array, and the code reading it is compiled for one).
  const query: string[] = [];
  for (const field of fields) for (const word of field) if (query.length < MAX_WORDS) query.push(word);
  let optional = 0;
  query.forEach((q, i) => isTitle(q) && (optional |= 1 << i));
  if (query.every((q) => isTitle(q))) return [];
  const units: QueryUnit[] = [];
  query.forEach((q, i) => {
    if (!(optional & (1 << i))) units.push({ text: q, mask: 1 << i, similar: q.length > 1 ? similarWordsSeen(index, q) : new Map(), joinable: new Map() });
  });
  // Two words joined stand for one word split by a space or a period ("Guz man", "Car. Dona"):
  // only as that word's spelling, never as a near neighbour of another.
  for (let i = 0; i + 1 < query.length; i++) {
    const text = query[i] + query[i + 1];
    if (text.length < 3) continue;
    const similar = joinedWordsSeen(index, text);
    if (similar.size) units.push({ text, mask: 3 << i, similar, joinable: new Map() });
  }
  // Which query positions each listed name shares, as bits per name (scratch arrays of the
  // index, cleared after use), and which of the name's positions those words cover.
  const masks = (index.shared ??= new Int32Array(index.names.length));
  const covered = (index.covered ??= new Int32Array(index.names.length));
  const touched = (index.touched ??= new Int32Array(index.names.length));
  let touchedCount = 0;
  const { postingStarts, postingNames, postingMasks } = index;
  for (const unit of units) {
    for (const id of unit.similar.keys()) {
      for (let k = postingStarts[id]; k < postingStarts[id + 1]; k++) {
        const n = postingNames[k];
        if (masks[n] === 0) touched[touchedCount++] = n;
        masks[n] |= unit.mask;
        covered[n] |= postingMasks[k];
      }
    }
  }
  // Words other than titles and initials (a loop: see lettersOf).
  let full = 0;
  for (let i = 0; i < query.length; i++) if (query[i].length > 1 && !(optional & (1 << i))) full++;
  const needed = Math.max(1, Math.min(2, full));
  const best = new Map<number, Candidate>();
  // pairedQuery: each query word's similarity in this pairing (read here, never kept: scoreName's is its scratch).
  const consider = (n: number, nameScore: number, whole: boolean, pairedQuery: Float64Array) => {
    if (nameScore < minScore) return;
    const name = index.names[n];
    const current = best.get(name.entry);
    if (current && (current.whole > whole || (current.whole === whole && current.nameScore >= nameScore))) return;
    const entry = index.entries[name.entry];
    const agreed: string[] = [];
    const differed: string[] = [];
    // The subject's name parts: agreed when every word found a close listed word.
    let at = 0;
    for (let f = 0; f < NAME_FIELDS.length; f++) {
      const end = Math.min(at + fields[f].length, query.length);
      let paired = 0;
      let close = 0;
      for (let i = at; i < end; i++) {
        if (optional & (1 << i)) continue;
        paired++;
        if (pairedQuery[i] >= 0.9) close++;
      }
      at = end;
      if (paired) (close === paired ? agreed : differed).push(NAME_FIELDS[f]);
    }
    const birthDate = birthDateAgreement(entry.datesOfBirth, subject.dateOfBirth);
    if (birthDate === "exact" || birthDate === "partial") agreed.push("dateOfBirth");
    if (birthDate === "differs") differed.push("dateOfBirth");
    if (subject.nationality && entry.nationalities.length > 0) {
      (entry.nationalities.includes(subject.nationality.toUpperCase()) ? agreed : differed).push("nationality");
    }
    best.set(name.entry, { entry, matchedName: name.published, matchedAlias: name.alias, nameScore, whole, birthDate, agreed, differed });
  };
  let initials = 0;
  let initialLetters = 0;
  query.forEach((q, i) => {
    if (q.length > 1 || optional & (1 << i)) return;
    initials |= 1 << i;
    initialLetters |= letterMask(q);
  });
  for (let k = 0; k < touchedCount; k++) {
    const n = touched[k];
    const mask = masks[n];
    const listed = covered[n];
    masks[n] = covered[n] = 0;
    if (bits(mask & ~optional) < needed) continue;
    if (scoreBound(query, optional, mask | initials, initialLetters, index.names[n], listed, index.vocabulary, minScore) < minScore) continue;
    const score = scoreName(query, optional, units, index.names[n], index.vocabulary, mask);
    consider(n, score, scoredWhole, pairedQueryScratch);
  }
  // The letters of the whole name, separators removed, in the order typed and surname first,
  // with and without titles.
  const allOnes = new Float64Array(query.length).fill(1);
  const typed = [fields[0], fields[1], fields[2]];
  const surnameFirst = [fields[2], fields[0], fields[1]];
  const keys = new Set([lettersOf(typed, true), lettersOf(surnameFirst, true), lettersOf(typed, false), lettersOf(surnameFirst, false)]);
  for (const key of keys) for (const n of index.joined.get(key) ?? []) consider(n, 1, true, allOnes);
  for (const n of index.exact.get(exactKey(query)) ?? []) consider(n, 1, true, allOnes);
  if (subject.dateOfBirth) matchWithBirthDate(index, query, optional, subject.dateOfBirth, subject.nationality, consider);
  return [...best.values()].sort((a, b) => b.nameScore - a.nameScore);
}

/**
 * A name whose date of birth agrees is a case from a looser likeness than a name alone needs: an
 * evader who types the listed date of birth also combines moves (a typo inside a split word, a
 * typo in a transliteration, a dropped surname word with an added one), and the date of birth
 * makes the few entries compared unlikely to be someone else. Compared with the entries whose
 * published date has the subject's day (exact) or whose published month, year or range holds it
 * (partial): at least two of the listed name's words, and at least half of them, are in the
 * subject's name, and at least two of the subject's words (a title the listed name has as a word
 * counts) are in the listed name (more than half of the subject's other words where only the year
 * or month agrees); where the listed words found are its surname and a given name (containedIn),
 * two words each way, whatever else either name has. "In" allows the edits of `looseBudget` (those
 * of the day where the entry's nationality is the subject's as well as the year; spelling and
 * transliteration skeleton; where the entry's nationality is the subject's too, skeletons with their vowels folded;
 * alternative spellings of some romanisations, alternativeSpelling; a typo in a spelling of a
 * transliteration class, classOfMisspelling), a word written as two, and two words written as one.
 * Or, with as many words each, every word of each name in the other where "in" also allows slips
 * at half an edit (slippedIn): a slip in every word of a short name ("Qlli Kun" for KONY, Ali)
 * with only a year agreeing (looselyFound).
 * Never a HIT: not a whole name (verdict).
 */
function matchWithBirthDate(
  index: MatchIndex,
  query: string[],
  optional: number,
  dateOfBirth: string,
  nationality: string | null | undefined,
  consider: (n: number, nameScore: number, whole: boolean, pairedQuery: Float64Array) => void,
) {
  const exact = index.births.get(dateOfBirth) ?? NO_ENTRIES;
  const month = index.births.get(dateOfBirth.slice(0, 7)) ?? NO_ENTRIES;
  const year = index.births.get(dateOfBirth.slice(0, 4)) ?? NO_ENTRIES;
  if (exact.length === 0 && month.length === 0 && year.length === 0) return;
  const all = (1 << query.length) - 1;
  const required = all & ~optional;
  // A title counts as a word in common where the listed name has it as a word of its own ("Sir"
  // for SEIR, "Sheikh" for ELSHEIKH); the shares below are of the subject's other words.
  if (bits(all) < 2 || bits(required) < 1) return;
  // The subject's words (titles too) and neighbours joined.
  const subjectUnits: { text: string; mask: number }[] = [];
  query.forEach((q, i) => subjectUnits.push({ text: q, mask: 1 << i }));
  for (let i = 0; i + 1 < query.length; i++) subjectUnits.push({ text: query[i] + query[i + 1], mask: 3 << i });
  // Packed arrays, as the index's are (packedMap): the looser comparison's compiled code meets one
  // kind of array on both sides.
  const texts = packedMap(subjectUnits, (u) => u.text);
  const skeletons = packedMap(texts, skeleton);
  const alternatives = packedMap(texts, alternativeSpelling);
  const subject = looseForm(
    texts,
    skeletons,
    alternatives,
    packedMap(alternatives, (a, k) => (bits(subjectUnits[k].mask) === 1 && classOfMisspelling(texts[k], skeletons[k])) || alternativeSkeleton(a)),
    packedMap(subjectUnits, (u) => u.mask),
    query.filter((_, i) => required & (1 << i)).join(""),
  );
  const tried = new Set<number>();
  const upperNationality = nationality ? nationality.toUpperCase() : null;
  const tryEntries = (entries: number[], sameDay: boolean) => {
    for (const e of entries) {
      if (tried.has(e)) continue;
      tried.add(e);
      const sameNationality = !!upperNationality && index.entries[e].nationalities.includes(upperNationality);
      // The nationality agreeing as well as the year is a second identifier: the edits of the day.
      const how = sameNationality ? BY_NATIONALITY : sameDay ? BY_DAY : BY_YEAR;
      for (let n = index.firstNames[e]; n < index.firstNames[e + 1]; n++) {
        const name = index.names[n];
        const listedRequired = ((1 << name.tokens.length) - 1) & ~name.optional;
        if (bits(listedRequired) < 2) continue;
        const found = looselyFound(index, name, listedRequired, subject, how, sameDay, all, required);
        if (!found) continue;
        consider(
          n,
          LOOSE,
          false,
          Float64Array.from(query, (_, i) => (found & (1 << i) ? LOOSE : 0)),
        );
      }
    }
  };
  tryEntries(exact, true);
  tryEntries(month, false);
  tryEntries(year, false);
}

/**
 * The subject's positions in a listed name found by the looser comparison (matchWithBirthDate),
 * or 0 where the name is not a case: at least two of the listed name's words, and at least half
 * of them (or its surname and a given name, containedIn), in the subject's; at least two of the
 * subject's in the listed name, and more than half of its words other than titles unless the day
 * agrees or the name is contained. Or, where both names have as many words (other than titles),
 * every word of each in the other with slips allowed as well (slippedIn): a slip or two in every
 * word of a short name ("Qlli Kun" for KONY, Ali: a key beside the a and a doubled l; o written u
 * and the final y dropped) is as far as one typo, and the whole of both names word for word, not
 * a share of them, keeps one similar word from making a case.
 */
function looselyFound(
  index: MatchIndex,
  name: IndexedName,
  listedRequired: number,
  subject: LooseForm,
  how: Looseness,
  sameDay: boolean,
  all: number,
  required: number,
): number {
  const wanted = bits(listedRequired);
  // Most names of the entries compared have too few words with the letters to be in the subject's.
  const found = plausiblyIn(index, name, subject, how);
  const plausible = found & listedRequired;
  let listed: LooseForm | null = null;
  let inSubjectMask = 0;
  let inListedMask = 0;
  // How far the comparison without slips went: 0 not at all, 1 the listed name's words, 2 the subject's too.
  let compared = 0;
  if (bits(plausible) >= 2 && (2 * bits(plausible) >= wanted || containedIn(name, listedRequired, plausible))) {
    listed = listedForm(index, name);
    inSubjectMask = presentIn(listed, subject, how) & listedRequired;
    compared = 1;
    const inSubject = bits(inSubjectMask);
    // The listed name as people shorten it (its surname and a given name) is there whatever
    // else the subject carries: the shares of the two names' words are not asked of it.
    const contained = containedIn(name, listedRequired, inSubjectMask);
    if (inSubject >= 2 && (2 * inSubject >= wanted || contained)) {
      inListedMask = presentIn(subject, listed, how) & all;
      compared = 2;
      const inListed = bits(inListedMask);
      if (inListed >= 2 && (sameDay || contained || 2 * inListed >= bits(required))) return inListedMask;
    }
  }
  // With slips, the whole of both names word for word: as many words (other than titles) each,
  // every one in the other name. Only what was not found without slips is measured again.
  if (wanted !== bits(required)) return 0;
  if ((plausiblyWithSlips(index, name, found, subject, how.dayEdits) & listedRequired) !== listedRequired) return 0;
  listed ??= listedForm(index, name);
  inSubjectMask = presentWithSlips(listed, subject, how, inSubjectMask, compared >= 1) & listedRequired;
  if (inSubjectMask !== listedRequired) return 0;
  inListedMask = presentWithSlips(subject, listed, how, inListedMask, compared >= 2) & all;
  return (inListedMask & required) === required ? inListedMask : 0;
}

/**
 * The positions of `from`'s words in `to` (presentIn) with slips as well (slippedIn), from `known`:
 * those found without slips, where `compared` says every word was compared so (only slips are
 * left to measure).
 */
function presentWithSlips(from: LooseForm, to: LooseForm, how: Looseness, known: number, compared: boolean): number {
  let found = known;
  for (let k = 0; k < from.units.length; k++) {
    const { mask } = from.units[k];
    if ((found & mask) === mask) continue;
    if ((!compared && looselyIn(from, k, to, how)) || slippedIn(from, k, to, how.dayEdits)) found |= mask;
  }
  return found;
}

/**
 * Whether a single word is one of a name's single words but for slips (slipDistance), each half an
 * edit, within looseBudget's edits (two slips in a word of up to 7 letters where the year agrees),
 * whatever the lengths: slips are not the changes that make short words of other lengths other
 * names (lengthsCompared).
 */
function slippedIn(from: LooseForm, f: number, name: LooseForm, dayEdits: boolean): boolean {
  if (bits(from.units[f].mask) !== 1) return false;
  const a = from.forms;
  const b = name.forms;
  const i = from.units[f].word;
  const word = a.words[i];
  for (let k = 0; k < name.units.length; k++) {
    if (bits(name.units[k].mask) !== 1) continue;
    const j = name.units[k].word;
    const unit = b.words[j];
    const budget = looseBudget(Math.min(word.length, unit.length), dayEdits);
    if (slipBound(a.masks[i] & ~b.masks[j], budget) && slipBound(b.masks[j] & ~a.masks[i], budget) && slipDistance(word, unit, 2 * budget) <= 2 * budget)
      return true;
  }
  return false;
}

/**
 * Whether a listed name's words at `found` (positions, `required` its words other than titles) are
 * the name as people shorten it: every surname word and a given name where the list says which
 * words are the surname ("SURNAME, Given"), else its first and last words (names published given
 * names first, as the UN's). The looser comparison's form of the rule of contained names (scoreName).
 */
function containedIn(name: IndexedName, required: number, found: number): boolean {
  if (name.surname) return (name.surname & required & ~found) === 0 && (found & required & ~name.surname) !== 0;
  const first = required & -required;
  const last = 1 << (31 - Math.clz32(required));
  return (found & first) !== 0 && (found & last) !== 0;
}

const CLASS_SKELETONS = new Set(CLASS_SPELLINGS.map(([, s]) => s));

/** A word and each of its forms with one letter dropped: two words one edit apart share one of these. */
function withOneDropped(word: string): string[] {
  const forms = [word];
  for (let i = 0; i < word.length; i++) forms.push(word.slice(0, i) + word.slice(i + 1));
  return forms;
}

/**
 * The class spellings of 4+ letters (a word of 5+ is one edit from none shorter) by each of their
 * forms with at most one letter dropped (withOneDropped), as positions in CLASS_SPELLINGS: a word's
 * own such forms look up every spelling one edit from it (a change, an insertion, a deletion or two
 * neighbours swapped leave one form in common), so a screening looks up a few keys instead of
 * measuring edits to every spelling. Built once per process: about 2,000 keys.
 */
const CLASS_SPELLINGS_NEAR = new Map<string, number[]>();
CLASS_SPELLINGS.forEach(([spelling], i) => {
  if (spelling.length < 4) return;
  for (const form of withOneDropped(spelling)) {
    const at = CLASS_SPELLINGS_NEAR.get(form);
    if (!at) CLASS_SPELLINGS_NEAR.set(form, [i]);
    else if (at.at(-1) !== i) at.push(i);
  }
});

/**
 * The skeleton of the transliteration class one of whose spellings a subject's word of 5+ letters
 * is one edit from ("mhemet" for "mehmet": a typo in a transliteration), where the word is not
 * a spelling of a class itself; null otherwise. Where several are, the first in the data.
 */
function classOfMisspelling(word: string, wordSkeleton: string): string | null {
  if (word.length < 5 || CLASS_SKELETONS.has(wordSkeleton)) return null;
  let first = CLASS_SPELLINGS.length;
  for (const form of withOneDropped(word)) {
    for (const i of CLASS_SPELLINGS_NEAR.get(form) ?? []) if (i < first && editDistance(word, CLASS_SPELLINGS[i][0], 1) <= 1) first = i;
  }
  return first < CLASS_SPELLINGS.length ? CLASS_SPELLINGS[first][1] : null;
}

/**
 * How loose the comparison of a name whose date of birth agrees. `dayEdits`: the edits of a day
 * that agrees (looseBudget, lengthsCompared), where the day agrees or where the published year,
 * month or range and the nationality both do (two identifiers, as strong as the day); the year
 * alone allows fewer. `fold`: vowels folded (foldVowels), only where the nationality agrees, a
 * second identifier beside the date of birth (folded vowels with a year of birth alone would make
 * many short names alike).
 */
interface Looseness {
  dayEdits: boolean;
  fold: boolean;
}

/** The looseness of an entry whose year of birth agrees, whose day does, and whose nationality does as well as the year. */
const BY_YEAR: Looseness = { dayEdits: false, fold: false };
const BY_DAY: Looseness = { dayEdits: true, fold: false };
const BY_NATIONALITY: Looseness = { dayEdits: true, fold: true };
/** No entries (an absent key of `births`). */
const NO_ENTRIES: number[] = [];

/**
 * Words as the looser comparison compares them, by word: as written, as skeletons, with vowels
 * folded, in their alternative spelling (alternativeSpelling) as written and as skeletons, and
 * their letter masks (letterMask). An index has one for its vocabulary (built with it); a subject
 * has one for its words and neighbours joined.
 */
interface WordForms {
  words: string[];
  skeletons: string[];
  /** The skeletons with their vowels folded (foldVowels). */
  folded: string[];
  alternatives: string[];
  alternativeSkeletons: string[];
  /** 1 where a word's alternative spelling or its skeleton differs from the word's own. */
  alternate: ArrayLike<number>;
  masks: ArrayLike<number>;
  skeletonMasks: ArrayLike<number>;
  foldedMasks: ArrayLike<number>;
  alternativeMasks: ArrayLike<number>;
  alternativeSkeletonMasks: ArrayLike<number>;
}

/**
 * A name for the looser comparison: its units (each word and each two neighbours joined) as
 * words of `forms`, the name's word positions each covers, and all its letters.
 */
interface LooseForm {
  forms: WordForms;
  /** Its units: each a word of `forms` and the name's word positions it covers (a listed name's own units). */
  units: Unit[];
  letters: string;
  lettersMask: number;
}

/** A subject's LooseForm: its units are its own words. */
function looseForm(
  units: string[],
  skeletons: string[],
  alternatives: string[],
  alternativeSkeletons: string[],
  positions: number[],
  letters: string,
): LooseForm {
  const folded = packedMap(skeletons, foldVowels);
  return {
    forms: {
      words: units,
      skeletons,
      folded,
      alternatives,
      alternativeSkeletons,
      // Typed arrays as the index's are: the comparison's compiled code meets one kind of array.
      alternate: Uint8Array.from(units, (u, k) => Number(alternatives[k] !== u || alternativeSkeletons[k] !== skeletons[k])),
      masks: Int32Array.from(units, letterMask),
      skeletonMasks: Int32Array.from(skeletons, letterMask),
      foldedMasks: Int32Array.from(folded, letterMask),
      alternativeMasks: Int32Array.from(alternatives, letterMask),
      alternativeSkeletonMasks: Int32Array.from(alternativeSkeletons, letterMask),
    },
    units: packedUnits(positions),
    letters,
    lettersMask: letterMask(letters),
  };
}

/**
 * `items.map(f)` built by push: always a packed array. Array.prototype.map's arrays were packed
 * for some subjects and holey for others (V8's %HaveSameMap over a process's first screenings),
 * and the looser comparison's compiled code, having met one kind in a subject's forms, was thrown
 * away at the first subject with the other.
 */
function packedMap<T, U>(items: readonly T[], f: (item: T, k: number) => U): U[] {
  const mapped: U[] = [];
  for (let k = 0; k < items.length; k++) mapped.push(f(items[k], k));
  return mapped;
}

/** A subject's units as a listed name's are built (by push: a packed array). */
function packedUnits(positions: number[]): Unit[] {
  const units: Unit[] = [];
  for (let word = 0; word < positions.length; word++) units.push({ word, mask: positions[word] });
  return units;
}

/** A listed name's LooseForm: its words' forms are the index's, its letters its own (titles left out). */
function listedForm(index: MatchIndex, name: IndexedName): LooseForm {
  return { forms: index.forms, units: name.units, letters: name.letters, lettersMask: name.lettersMask };
}

/**
 * A skeleton with each run of vowels written as one "a": the vowels are what transliterations of
 * one name disagree on most (Omar / Umar / Omer, Usmon / Usman, Ermias / Armias), so the looser
 * comparison of names whose date of birth agrees measures edits on the consonants and where
 * vowels stand, not which vowels.
 */
function foldVowels(word: string): string {
  return word.replace(/[aeiou]+/g, "a");
}

const VOWELS = letterMask("aeiou");
const FOLDED_VOWEL = letterMask("a");

/** A letter mask as foldVowels leaves it. */
function foldedMask(mask: number): number {
  return mask & VOWELS ? (mask & ~VOWELS) | FOLDED_VOWEL : mask;
}

/** The positions of `from`'s words that are in `to` (looselyIn), alone or as a unit of two. */
function presentIn(from: LooseForm, to: LooseForm, how: Looseness): number {
  let found = 0;
  for (let k = 0; k < from.units.length; k++) {
    const { mask } = from.units[k];
    if ((found & mask) === mask) continue;
    if (looselyIn(from, k, to, how)) found |= mask;
  }
  return found;
}

/** Words of three letters or fewer are compared with words of another length only with the edits of a day that agrees (Looseness). */
function lengthsCompared(a: number, b: number, dayEdits: boolean): boolean {
  return dayEdits || a === b || Math.min(a, b) > 3;
}

/**
 * The positions of a listed name's words that may be in the subject's (presentIn), from letter
 * masks alone: looselyIn's bounds without its edit distances, so a name with fewer such words
 * than the looser comparison needs is skipped before its form is built.
 */
function plausiblyIn(index: MatchIndex, name: IndexedName, to: LooseForm, { dayEdits, fold }: Looseness): number {
  const { forms } = to;
  let found = 0;
  for (const u of name.units) {
    if ((found & u.mask) === u.mask) continue;
    const length = index.vocabulary[u.word].length;
    const wordMask = index.masks[u.word];
    const skeletonMask = index.skeletonMasks[u.word];
    const foldMask = foldedMask(skeletonMask);
    const alternativeMask = index.alternativeMasks[u.word];
    const alternativeSkeletonMask = index.alternativeSkeletonMasks[u.word];
    const alternate = index.forms.alternate[u.word];
    const single = bits(u.mask) === 1;
    let plausible = false;
    for (let k = 0; k < to.units.length && !plausible; k++) {
      if (!single && bits(to.units[k].mask) !== 1) continue;
      const t = to.units[k].word;
      const toLength = forms.words[t].length;
      const budget = looseBudget(Math.min(length, toLength), dayEdits);
      // As looselyIn compares: the alternative spellings where either word has one; then, for
      // short words of other lengths (lengthsCompared), only the same skeleton.
      if (
        (alternate || forms.alternate[t]) &&
        (bits(alternativeMask & ~forms.alternativeMasks[t]) <= budget || bits(alternativeSkeletonMask & ~forms.alternativeSkeletonMasks[t]) <= budget)
      )
        plausible = true;
      else if (!lengthsCompared(length, toLength, dayEdits)) plausible = skeletonMask === forms.skeletonMasks[t];
      else
        plausible =
          bits(wordMask & ~forms.masks[t]) <= budget ||
          bits(skeletonMask & ~forms.skeletonMasks[t]) <= budget ||
          (fold && bits(foldMask & ~forms.foldedMasks[t]) <= budget);
    }
    if (!plausible && single && length >= (dayEdits ? 5 : 7)) plausible = bits(wordMask & ~to.lettersMask) <= looseBudget(length, dayEdits);
    if (plausible) found |= u.mask;
  }
  return found;
}

/**
 * The positions of a listed name's words that may be in the subject's with slips as well
 * (slippedIn's bound: slipPlausible), from `found`, those plausiblyIn found without: its single
 * words (its first units) not found so, until one is not (the whole name is asked for).
 */
function plausiblyWithSlips(index: MatchIndex, name: IndexedName, found: number, to: LooseForm, dayEdits: boolean): number {
  let withSlips = found;
  for (const u of name.units) {
    if (bits(u.mask) !== 1) break;
    if (withSlips & u.mask) continue;
    if (!slipPlausible(index.masks[u.word], index.vocabulary[u.word].length, to, dayEdits)) break;
    withSlips |= u.mask;
  }
  return withSlips;
}

/** Whether a listed word (its letter mask and length) may be in one of a name's single words with slips (slipBound). */
function slipPlausible(wordMask: number, length: number, to: LooseForm, dayEdits: boolean): boolean {
  const { forms } = to;
  for (let k = 0; k < to.units.length; k++) {
    if (bits(to.units[k].mask) !== 1) continue;
    const t = to.units[k].word;
    const budget = looseBudget(Math.min(length, forms.words[t].length), dayEdits);
    if (slipBound(wordMask & ~forms.masks[t], budget) && slipBound(forms.masks[t] & ~wordMask, budget)) return true;
  }
  return false;
}

/**
 * Edits allowed in the looser comparison: with the edits of a day that agrees (Looseness), one up
 * to 5 letters, two up to 8, three from 9; where only the month or year does, one up to 7, two
 * from 8.
 */
function looseBudget(length: number, dayEdits: boolean): number {
  if (dayEdits) return length <= 5 ? 1 : length <= 8 ? 2 : 3;
  return length <= 7 ? 1 : 2;
}

/** The score of a name found by the looser comparison: above the default SCREENING_BIRTH_DATE_MATCH_SCORE (0.7). */
const LOOSE = 0.75;

/** Whether two forms of words are within `budget` edits (the letters one lacks bound it first); short forms compare with forms of their length only (lengthsCompared). */
function near(a: string, aMask: number, b: string, bMask: number, budget: number, dayEdits: boolean): boolean {
  return lengthsCompared(a.length, b.length, dayEdits) && bits(aMask & ~bMask) <= budget && editDistance(a, b, budget) <= budget;
}

/**
 * Whether a word (or two joined) is in a name: a unit of the name within the edit budget, as
 * written, as skeletons, with vowels folded (`fold`), or in their alternative spellings as written
 * or as skeletons; or, a single word of 7+ letters (5+ with the edits of a day that agrees), anywhere in its letters.
 */
function looselyIn(from: LooseForm, f: number, name: LooseForm, { dayEdits, fold }: Looseness): boolean {
  const a = from.forms;
  const b = name.forms;
  const i = from.units[f].word;
  const word = a.words[i];
  const single = bits(from.units[f].mask) === 1;
  for (let k = 0; k < name.units.length; k++) {
    // Two words joined stand for one word written as two: they are compared with single words only.
    if (!single && bits(name.units[k].mask) !== 1) continue;
    const j = name.units[k].word;
    const unit = b.words[j];
    const budget = looseBudget(Math.min(word.length, unit.length), dayEdits);
    // Alternative spellings are written forms of their own: their own lengths count.
    if (a.alternate[i] || b.alternate[j]) {
      if (near(a.alternatives[i], a.alternativeMasks[i], b.alternatives[j], b.alternativeMasks[j], budget, dayEdits)) return true;
      if (near(a.alternativeSkeletons[i], a.alternativeSkeletonMasks[i], b.alternativeSkeletons[j], b.alternativeSkeletonMasks[j], budget, dayEdits))
        return true;
    }
    // Words of three letters or fewer differ in length only where the day of birth agrees, or as
    // spellings of one name (the same skeleton: "sir" for "seir").
    if (!lengthsCompared(word.length, unit.length, dayEdits)) {
      if (a.skeletons[i] === b.skeletons[j]) return true;
      continue;
    }
    if (near(word, a.masks[i], unit, b.masks[j], budget, dayEdits)) return true;
    if (near(a.skeletons[i], a.skeletonMasks[i], b.skeletons[j], b.skeletonMasks[j], budget, dayEdits)) return true;
    if (fold && near(a.folded[i], a.foldedMasks[i], b.folded[j], b.foldedMasks[j], budget, dayEdits)) return true;
  }
  const budget = looseBudget(word.length, dayEdits);
  return single && word.length >= (dayEdits ? 5 : 7) && bits(a.masks[i] & ~name.lettersMask) <= budget && infixDistance(word, name.letters, budget) <= budget;
}

/**
 * A letter typed for another (data/screening/typing-slips.json), by pair: SAME; a VOWEL one name's
 * spellings write for another (half an edit); a KEY next to the intended one on a QWERTY keyboard
 * (half an edit, once per word); OTHER (an edit).
 */
const SAME = 0;
const VOWEL = 1;
const KEY = 2;
const OTHER = 3;
const LETTER_CHANGES = new Uint8Array(32 * 32).fill(OTHER);
const letterCode = (letter: string) => letter.charCodeAt(0) % 32;
const setChange = (a: string, b: string, change: number) => {
  LETTER_CHANGES[letterCode(a) * 32 + letterCode(b)] = LETTER_CHANGES[letterCode(b) * 32 + letterCode(a)] = change;
};
for (const [key, neighbours] of Object.entries(typingSlips.keyboardNeighbours)) for (const n of neighbours) setChange(key, n, KEY);
for (const [a, b] of typingSlips.vowelSpellings) setChange(a, b, VOWEL);
for (let c = 0; c < 32; c++) LETTER_CHANGES[c * 33] = SAME;
const FINAL_VOWELS = letterMask(typingSlips.finalVowels);
/** The vowels of typing-slips.json (its spellings of one vowel and its final vowels): slipBound. */
const SLIP_VOWELS = FINAL_VOWELS | letterMask(typingSlips.vowelSpellings.join(""));

// Scratch of slipDistance: the two words' letters, a doubled letter once.
let slipLetters = [new Int32Array(64), new Int32Array(64)];

/** A word's letters (as letterMask folds them) into `to`, a doubled letter once: how many. */
function singleLetters(word: string, to: Int32Array): number {
  let n = 0;
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i) % 32;
    if (n === 0 || to[n - 1] !== c) to[n++] = c;
  }
  return n;
}

/**
 * How many slips (data/screening/typing-slips.json) make one word the other, each half an edit,
 * or more than `max` where other edits would be needed: a doubled letter written once first;
 * then letter by letter, a vowel written as another of its spellings, or a key next to the
 * intended one (once: two in one short word, "kim" / "jin", are another name); and a vowel (or y)
 * at the end of either word written or not.
 */
function slipDistance(x: string, y: string, max: number): number {
  const longest = Math.max(x.length, y.length);
  if (longest >= slipLetters[0].length) slipLetters = slipLetters.map(() => new Int32Array(2 * longest + 2));
  const a = slipLetters[0];
  const b = slipLetters[1];
  let m = singleLetters(x, a);
  let n = singleLetters(y, b);
  let slips = 0;
  if (m === n + 1 && FINAL_VOWELS & (1 << a[m - 1])) {
    m--;
    slips++;
  } else if (n === m + 1 && FINAL_VOWELS & (1 << b[n - 1])) {
    n--;
    slips++;
  }
  if (m !== n) return max + 1;
  let keys = 0;
  for (let i = 0; i < m && slips <= max; i++) {
    const change = LETTER_CHANGES[a[i] * 32 + b[i]];
    if (change === SAME) continue;
    if (change === OTHER || (change === KEY && keys++ > 0)) return max + 1;
    slips++;
  }
  return Math.min(slips, max + 1);
}

/**
 * Whether a word may be slips (slipDistance) within `budget` edits of another, from the letters it
 * lacks: each is a slip at best, and a consonant only the one key slip.
 */
function slipBound(lacking: number, budget: number): boolean {
  return bits(lacking) <= 2 * budget && bits(lacking & ~SLIP_VOWELS) <= 1;
}

/** The fewest edits that make `word` a run of `text`'s letters, stopping past `max`. */
function infixDistance(word: string, text: string, max: number): number {
  if (text.length >= rows[0].length) rows = rows.map(() => new Int32Array(2 * text.length + 2));
  let prev = rows[0];
  let row = rows[1];
  prev.fill(0, 0, text.length + 1);
  for (let i = 1; i <= word.length; i++) {
    row[0] = i;
    let best = i;
    const wi = word.charCodeAt(i - 1);
    for (let j = 1; j <= text.length; j++) {
      let d = prev[j - 1] + (wi === text.charCodeAt(j - 1) ? 0 : 1);
      if (prev[j] + 1 < d) d = prev[j] + 1;
      if (row[j - 1] + 1 < d) d = row[j - 1] + 1;
      row[j] = d;
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
    const spare = prev;
    prev = row;
    row = spare;
  }
  let least = prev[0];
  for (let j = 1; j <= text.length; j++) least = Math.min(least, prev[j]);
  return least;
}

/**
 * At most what scoreName can give a name, from the positions the postings pair on both sides
 * (`coverable` of the query, `covered` of the listed name): the query's score with every coverable
 * word paired at 1, lowered by the listed words no posting reached; 1 when the listed name may be
 * contained in the subject's. Names below the cut-off are not scored (most names that share a
 * common word: "abdullah", "ahmed"). Initials pair by their first letter, not through the
 * postings: a listed initial gives no bound, a query initial covers the listed words it begins.
 */
function scoreBound(
  query: string[],
  optionalQuery: number,
  coverable: number,
  initialLetters: number,
  name: IndexedName,
  covered: number,
  vocabulary: string[],
  minScore: number,
): number {
  if (name.initials) return 1;
  // A query initial may pair with any listed word it begins.
  if (initialLetters) for (let i = 0; i < name.tokens.length; i++) if (initialLetters & letterMask(vocabulary[name.tokens[i]][0])) covered |= 1 << i;
  const required = ((1 << name.tokens.length) - 1) & ~name.optional;
  if (bits(required) >= 2) {
    const given = required & ~name.surname;
    const surname = name.surname & required;
    if (name.surname ? (surname & ~covered) === 0 && (given & covered) !== 0 : (given & ~covered) === 0) return 1;
  }
  let paired = 0;
  let length = 0;
  for (let i = 0; i < query.length; i++) {
    const bit = 1 << i;
    if (coverable & bit) paired += query[i].length;
    if (coverable & bit || !(optionalQuery & bit)) length += query[i].length;
  }
  const bound = paired / length;
  if (bound < minScore) return bound;
  let unpaired = 0;
  let listedLength = 0;
  for (let i = 0; i < name.tokens.length; i++) {
    const bit = 1 << i;
    const n = vocabulary[name.tokens[i]].length;
    if (required & bit || covered & bit) listedLength += n;
    if (required & bit && !(covered & bit)) unpaired += name.surname & bit ? 2 * n : n;
  }
  return bound * (1 - (UNPAIRED_PENALTY * unpaired) / listedLength);
}

// Scratch of scoreName: its candidate pairs (query positions, listed positions, similarity) and
// their order, reused across names (scoreName runs for thousands of names per cold screening).
let pairQuery = new Int32Array(64);
let pairToken = new Int32Array(64);
let pairSims = new Float64Array(64);
let pairOrder = new Int32Array(64);

function growPairs() {
  const grow = <T extends Int32Array | Float64Array>(a: T): T => {
    const b = new (a.constructor as new (n: number) => T)(2 * a.length);
    b.set(a);
    return b;
  };
  pairQuery = grow(pairQuery);
  pairToken = grow(pairToken);
  pairSims = grow(pairSims);
  pairOrder = grow(pairOrder);
}

/** Adds a pair to scoreName's scratch as its `count`th: the new count. */
function addPair(count: number, qmask: number, tmask: number, sim: number): number {
  if (count === pairSims.length) growPairs();
  pairQuery[count] = qmask;
  pairToken[count] = tmask;
  pairSims[count] = sim;
  pairOrder[count] = count;
  return count + 1;
}

/** Whether pair `a` sorts after pair `b`: lower similarity, or as similar and covering fewer words. */
function pairAfter(a: number, b: number): boolean {
  const bySim = pairSims[b] - pairSims[a];
  if (bySim !== 0) return bySim > 0;
  return bits(pairQuery[b]) + bits(pairToken[b]) > bits(pairQuery[a]) + bits(pairToken[a]);
}

/**
 * Pairs the subject's words (and joined neighbours) with a listed name's words (and joined
 * neighbours) greedily, best similarity first, each word used once. Two scores, the higher wins:
 * - the query's: length-weighted mean similarity of the subject's words (unpaired count 0),
 *   lowered by the share of the listed name's letters left unpaired (a surname's twice);
 * - the listed name's, when it is contained in the subject's: every surname word present and at
 *   least one given name (or its initial), or every word where the list names no surname; then
 *   the length-weighted mean similarity of the listed words paired, whatever else the subject
 *   carries.
 */
// scoreName's other answers, beside the score it returns: whether the name counts as whole, and
// each query word's similarity in the pairing (scratch read before the next name is scored: no
// allocation for the thousands of names a common word brings).
let scoredWhole = false;
const pairedQueryScratch = new Float64Array(MAX_WORDS);
let pairedTokenScratch = new Float64Array(32);

function scoreName(query: string[], optionalQuery: number, units: QueryUnit[], name: IndexedName, vocabulary: string[], shared: number): number {
  let count = 0;
  for (const u of units) {
    const single = bits(u.mask) === 1;
    // A unit whose words the postings did not bring to this name (`shared`) has no similar word in it.
    const mayPair = (u.mask & ~shared) === 0;
    for (const t of name.units) {
      const word = vocabulary[t.word];
      const listedSingle = bits(t.mask) === 1;
      // An initial ("Manuel A. Noriega"), on either side, pairs with a single word it begins.
      if (u.text.length === 1 || word.length === 1) {
        if (single && listedSingle && u.text[0] === word[0]) count = addPair(count, u.mask, t.mask, u.text === word ? 1 : INITIAL);
        continue;
      }
      if (!mayPair) continue;
      const sim = u.similar.get(t.word);
      if (sim === undefined) continue;
      if (!(single && listedSingle)) {
        let joinable = u.joinable.get(t.word);
        if (joinable === undefined) u.joinable.set(t.word, (joinable = joinedPair(u.text, word, sim)));
        if (!joinable) continue;
      }
      // Below 0.9 a pair is more likely two different words ("maria"/"mark") than a typo: it weighs less.
      count = addPair(count, u.mask, t.mask, sim >= 0.9 ? sim : sim - 2 * (0.9 - sim));
    }
  }
  // Best first; among equals, the pair covering more words (a joined pair over its halves); else
  // in the order found (a stable insertion sort: a name has a few dozen pairs at most).
  for (let i = 1; i < count; i++) {
    const key = pairOrder[i];
    let j = i - 1;
    while (j >= 0 && pairAfter(pairOrder[j], key)) {
      pairOrder[j + 1] = pairOrder[j];
      j--;
    }
    pairOrder[j + 1] = key;
  }
  const pairedQuery = pairedQueryScratch;
  pairedQuery.fill(0, 0, query.length);
  const tokens = name.tokens.length;
  if (pairedTokenScratch.length < tokens) pairedTokenScratch = new Float64Array(tokens);
  const pairedToken = pairedTokenScratch;
  pairedToken.fill(0, 0, tokens);
  let usedQuery = 0;
  let usedToken = 0;
  for (let p = 0; p < count; p++) {
    const at = pairOrder[p];
    const qmask = pairQuery[at];
    const tmask = pairToken[at];
    const sim = pairSims[at];
    if (sim <= 0 || usedQuery & qmask || usedToken & tmask) continue;
    usedQuery |= qmask;
    usedToken |= tmask;
    for (let i = 0; i < query.length; i++) if (qmask & (1 << i)) pairedQuery[i] = sim;
    for (let i = 0; i < name.tokens.length; i++) if (tmask & (1 << i)) pairedToken[i] = sim;
  }
  // A title counts only where it was paired (written joined to a word); else it is not there.
  let queryLength = 0;
  let querySum = 0;
  for (let i = 0; i < query.length; i++) {
    if (optionalQuery & (1 << i) && pairedQuery[i] === 0) continue;
    queryLength += query[i].length;
    querySum += pairedQuery[i] * query[i].length;
  }
  const queryScore = querySum / queryLength;
  let listedLength = 0;
  let unpairedLength = 0;
  let pairedLength = 0;
  let pairedSum = 0;
  let unpairedSurname = 0;
  for (let i = 0; i < tokens; i++) {
    const length = vocabulary[name.tokens[i]].length;
    if (pairedToken[i] > 0) {
      listedLength += length;
      pairedLength += length;
      pairedSum += pairedToken[i] * length;
    } else if (!(name.optional & (1 << i))) {
      listedLength += length;
      unpairedLength += length;
      // A surname word missing says more than a given name missing (people drop given names).
      if (name.surname & (1 << i)) unpairedSurname += length;
    }
  }
  let score = queryScore * (1 - (UNPAIRED_PENALTY * (unpairedLength + unpairedSurname)) / listedLength);
  const required = ((1 << tokens) - 1) & ~name.optional;
  // The listed positions present (paired at PRESENT or more), and the query's.
  let presentToken = 0;
  for (let i = 0; i < tokens; i++) if (pairedToken[i] >= PRESENT) presentToken |= 1 << i;
  let queryPresent = true;
  for (let i = 0; i < query.length && queryPresent; i++) queryPresent = !!(optionalQuery & (1 << i)) || pairedQuery[i] >= PRESENT;
  const missing = required & ~presentToken;
  let whole = missing === 0 && queryPresent;
  if (bits(required) >= 2 && pairedLength > 0) {
    const given = required & ~name.surname;
    const contained = name.surname ? (name.surname & missing) === 0 && (given & presentToken) !== 0 : (given & missing) === 0;
    if (contained) {
      score = Math.max(score, pairedSum / pairedLength);
      whole = true;
    }
  }
  scoredWhole = whole;
  return score;
}

/** The thresholds that turn a name score and a date of birth into a result (lib/platform/config). */
export interface Thresholds {
  /** From this name score, with the same date of birth, a HIT. */
  hit: number;
  /** From this name score, whatever the date of birth, a CLOSE_MATCH. */
  close: number;
  /** From this name score, with a compatible date of birth, a CLOSE_MATCH. */
  closeWithBirthDate: number;
}

/**
 * What a candidate decides. A listed name (a whole name scoring `hit` or more: the
 * entry's name, or all its surname words and a given name, spelled as its variants are) is a case whatever
 * date of birth the subject declared, since nobody verifies it: a date of birth never clears it.
 * An automatic HIT (BLOCKED) needs that name AND the same day of birth; a name alone, or a list
 * that gives only a year, is a case for a human, never a silent block. A partial name (`close` or
 * more: a word missing or unlike) is a case unless the subject's date of birth differs from every
 * published one; a weaker name is a case when the date of birth agrees (it raises).
 */
export function verdict(c: Pick<Candidate, "nameScore" | "whole" | "birthDate">, t: Thresholds): "HIT" | "CLOSE_MATCH" | null {
  if (c.whole && c.nameScore >= t.hit) return c.birthDate === "exact" ? "HIT" : "CLOSE_MATCH";
  if (c.birthDate === "differs") return null;
  if (c.nameScore >= t.close) return "CLOSE_MATCH";
  if (c.birthDate !== "unknown" && c.nameScore >= t.closeWithBirthDate) return "CLOSE_MATCH";
  return null;
}

/** The lowest name score any verdict needs for this subject: the matcher's cut-off. */
export function lowestScore(subject: MatchSubject, t: Thresholds): number {
  return subject.dateOfBirth ? Math.min(t.close, t.closeWithBirthDate) : t.close;
}

/** Made-up subjects a new index screens before it serves (warmUp). */
const WARM_UP_SUBJECTS = 300;

/**
 * Screens made-up subjects against a new index before it serves, then empties its word cache:
 * V8 compiles the matcher's code paths (the scans, scoring, the date-of-birth comparison) over
 * their first few hundred calls, and without this the first customers screened after a process
 * starts or a list is updated pay for it (docs/screening-quality.md). A path the warm-up never
 * takes is compiled without its feedback, and the first real subject to take it throws the
 * compiled caller away (about a millisecond, and a recompilation on V8's threads). So the subjects
 * are made of the index's own entries in each way the matcher meets names (warmUpSubject).
 * `screen` is how the index will serve (the provider's screenAgainst), so that code is compiled
 * as well.
 */
export function warmUp(
  index: MatchIndex,
  screen: (subject: MatchSubject) => void = (subject) => matchSubject(index, subject, 0.5),
  subjects = WARM_UP_SUBJECTS,
): void {
  const { entries } = index;
  for (let k = 0; k < Math.min(subjects, entries.length); k++) {
    screen(warmUpSubject(entries[(k * 7919) % entries.length], entries[(k * 104729 + 1) % entries.length], k % 8));
  }
  index.seen.clear();
}

/**
 * The `move`th made-up subject of warmUp from a listed entry and another: 0 the listed name with a
 * letter dropped, its day of birth and nationality; 1 its given names with the other's surname and
 * its day of birth; 2 its fields swapped and a title; 3 the listed name with the other's date of
 * birth and nationality; 4 and 5 words of both names, only a year of birth in common; 6 an initial
 * for the given names, with its day of birth; 7 a weak alias of its (matched only word for word),
 * or its given names joined as one word (the name's letters), with its day of birth and
 * nationality: a HIT.
 */
function warmUpSubject(entry: IndexEntry, other: IndexEntry, move: number): MatchSubject {
  const born = (e: IndexEntry) =>
    e.datesOfBirth.find((d) => /^\d{4}-\d{2}-\d{2}$/.test(d)) ?? (e.datesOfBirth[0] ? `${e.datesOfBirth[0].slice(0, 4)}-01-01` : null);
  const midYear = (e: IndexEntry) => (e.datesOfBirth[0] ? `${e.datesOfBirth[0].slice(0, 4)}-07-15` : null);
  const words = nameWords(naturalOrder(entry.name));
  const otherWords = nameWords(naturalOrder(other.name));
  const given = words.slice(0, -1).join(" ") || "x";
  const surname = words.at(-1) ?? "x";
  const weak = entry.aliases.find((a) => a.quality === "low");
  const weakWords = weak ? nameWords(naturalOrder(weak.name)) : [];
  let firstName = given;
  let middleNames: string[] | null = null;
  let lastName = surname;
  let dateOfBirth = born(entry);
  let nationality: string | null = null;
  switch (move) {
    case 0:
      lastName = surname.slice(0, -1) || surname;
      nationality = entry.nationalities[0] ?? null;
      break;
    case 1:
      lastName = otherWords.at(-1) ?? "x";
      break;
    case 2:
      [firstName, middleNames, lastName, dateOfBirth] = [surname, ["haji"], given, null];
      break;
    case 3:
      [dateOfBirth, nationality] = [born(other), other.nationalities[0] ?? null];
      break;
    case 4:
      [firstName, lastName, dateOfBirth] = [words[0] ?? "x", otherWords.at(-1) ?? "x", midYear(entry)];
      break;
    case 5:
      [firstName, dateOfBirth, nationality] = [otherWords[0] ?? "x", midYear(entry), other.nationalities[0] ?? null];
      break;
    case 6:
      firstName = `${given[0]}.`;
      break;
    case 7:
      if (weakWords.length >= 2) [firstName, lastName] = [weakWords[0], weakWords.slice(1).join(" ")];
      else firstName = given.replace(/ /g, "");
      nationality = entry.nationalities[0] ?? null;
      break;
  }
  // One object literal of the provider's shape (provider.ts nameForms).
  return { firstName, middleNames, lastName, dateOfBirth, nationality };
}
