import watchlist from "@/data/screening/sandbox-watchlist.json";
import type { Executor } from "@/db";
import type { ScreeningEvidence } from "@/db/schema";
import { config } from "@/lib/platform/config";
import { RetryLater } from "@/lib/platform/jobs/define";
import { listIndex } from "./list-index";
import { lowestScore, matchSubject, verdict, warmUp, type MatchIndex, type MatchSubject, type Thresholds } from "./match-index";
import { LISTS } from "./sources";
import { normaliseText } from "./names";

export type ScreeningResult = "CLEAR" | "CLOSE_MATCH" | "HIT";
export type { ScreeningEvidence };

export interface ScreeningSubject {
  firstName: string;
  /** A customer's middle names (a profile has them; a beneficiary does not). */
  middleNames?: string[] | null;
  lastName: string;
  dateOfBirth?: string | null;
  nationality?: string | null;
}

/** A result and why: the evidence is stored with the subject (lib/compliance/screening/results.ts), never returned by the API. */
export interface ScreeningOutcome {
  result: ScreeningResult;
  /** Matches, strongest first (empty when CLEAR). */
  evidence: ScreeningEvidence[];
  /** The list versions screened against (list key → version id). */
  listVersions: Record<string, string>;
}

/** Sanctions / PEP / adverse-media screening. `db` reads the lists stored in the database. */
export interface ScreeningProvider {
  screen(subject: ScreeningSubject, db: Executor): Promise<ScreeningOutcome>;
}

const RANK: Record<ScreeningResult, number> = { CLEAR: 0, CLOSE_MATCH: 1, HIT: 2 };

/** The stronger of two results. */
export function strongest(a: ScreeningResult, b: ScreeningResult): ScreeningResult {
  return RANK[a] >= RANK[b] ? a : b;
}

/** True when `a` is stronger than `b` (a stored result, possibly unset). */
export function stronger(a: ScreeningResult, b: string | null): boolean {
  return RANK[a] > (RANK[b as ScreeningResult] ?? 0);
}

/** Lower case, no diacritics, single spaces: "José  Ñúñez" → "jose nunez". */
export function normaliseName(value: string): string {
  return normaliseText(value);
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}

/** Sandbox provider: the watch list in data/screening; exact name HIT, edit distance ≤ 2 CLOSE_MATCH. */
export const sandboxScreening: ScreeningProvider = {
  async screen(subject) {
    const name = normaliseName(`${subject.firstName} ${subject.lastName}`);
    const evidence: ScreeningEvidence[] = [];
    watchlist.entries.forEach((entry, i) => {
      const listedName = `${entry.firstName} ${entry.lastName}`;
      const distance = editDistance(normaliseName(listedName), name);
      if (distance > 2) return;
      const result = distance === 0 ? "HIT" : "CLOSE_MATCH";
      const score = (1 - distance / Math.max(name.length, 1)).toFixed(3);
      evidence.push({
        list: "sandbox-watchlist",
        listVersionId: watchlist.version,
        entryId: String(i + 1),
        entryName: listedName,
        matchedName: listedName,
        matchedAlias: false,
        programs: ["SANDBOX"],
        score,
        result,
        agreed: [],
        differed: [],
      });
    });
    evidence.sort((a, b) => Number(b.score) - Number(a.score));
    const result = evidence.some((e) => e.result === "HIT") ? "HIT" : evidence.length ? "CLOSE_MATCH" : "CLEAR";
    return { result, evidence, listVersions: { "sandbox-watchlist": watchlist.version } };
  },
};

/** How many matches a screening keeps as evidence. */
const EVIDENCE_LIMIT = 5;

/** The lists' names as an operator reads them in the evidence. */
export const LIST_NAMES: Record<string, string> = {
  "ofac-sdn": "OFAC Specially Designated Nationals (SDN) List",
  "ofac-consolidated": "OFAC Consolidated Sanctions List (non-SDN)",
  "un-consolidated": "UN Security Council Consolidated List",
  "opensanctions-peps": "OpenSanctions Politically Exposed Persons",
};

/** The configured thresholds of `verdict` (lib/compliance/screening/match-index.ts). */
export function screeningThresholds(): Thresholds {
  const c = config();
  return { hit: c.SCREENING_HIT_SCORE, close: c.SCREENING_CLOSE_MATCH_SCORE, closeWithBirthDate: c.SCREENING_BIRTH_DATE_MATCH_SCORE };
}

/**
 * The ways a subject's name is screened: as typed, and, with middle names, also without them
 * (given name and surname alone), so a middle name added to a listed person's name never lowers
 * the match. The strongest of each entry counts. Each form is a new object of one shape whatever
 * the caller passed (a beneficiary, a profile, a row with more columns): the matcher's compiled
 * code, specialised to one shape, is not thrown away and rebuilt for every other.
 */
function nameForms(subject: ScreeningSubject): MatchSubject[] {
  const form = (middleNames: string[] | null): MatchSubject => ({
    firstName: subject.firstName,
    middleNames,
    lastName: subject.lastName,
    dateOfBirth: subject.dateOfBirth ?? null,
    nationality: subject.nationality ?? null,
  });
  return subject.middleNames?.length ? [form(subject.middleNames), form(null)] : [form(null)];
}

/**
 * The sanctions lists as imported into the database (lib/compliance/screening/list-store.ts): OFAC SDN, OFAC
 * consolidated (non-SDN) and the UN Security Council Consolidated List, each matched in memory
 * (match-index.ts) against its newest version. Until every list's first version is stored (a
 * fresh database loads the shipped copies as jobs at start), screening waits: it never reports
 * CLEAR against a list it has not read.
 */
export const sanctionsListScreening: ScreeningProvider = {
  async screen(subject, db) {
    return screenAgainst(await sanctionsIndexes(db), subject, screeningThresholds());
  },
};

/** Whether this process has warmed the matcher up (warmUp): compiled code is the process's, whatever the list version. */
let warmedUp = false;

/**
 * The match indexes of the sanctions lists' newest stored versions (what sanctionsListScreening
 * reads before matching). The first time in a process, each is warmed up through screenAgainst
 * before it serves: the compilation of the matcher's code is paid once per process, not by the
 * first customers screened (a later list version runs the same compiled code).
 */
export async function sanctionsIndexes(db: Executor): Promise<MatchIndex[]> {
  const indexes = await Promise.all(LISTS.map((list) => listIndex(db, list)));
  const missing = LISTS.filter((_, i) => !indexes[i]);
  if (missing.length) throw new RetryLater(1, `the sanctions lists are not loaded yet (${missing.join(", ")})`);
  if (!warmedUp) {
    warmedUp = true;
    for (const index of indexes as MatchIndex[]) warmUpScreening(index);
  }
  return indexes as MatchIndex[];
}

/** warmUp through screenAgainst, as the index serves. */
export function warmUpScreening(index: MatchIndex): void {
  const thresholds = screeningThresholds();
  warmUp(index, (subject) => screenAgainst([index], subject, thresholds));
}

/** One screening against loaded indexes: the evidence of every entry a verdict flags, strongest first. */
export function screenAgainst(indexes: MatchIndex[], subject: ScreeningSubject, thresholds: Thresholds): ScreeningOutcome {
  const listVersions: Record<string, string> = {};
  const evidence: ScreeningEvidence[] = [];
  // The forms, not the caller's object: lowestScore's compiled code meets one shape too.
  const forms = nameForms(subject);
  const minScore = lowestScore(forms[0], thresholds);
  for (const index of indexes) {
    listVersions[index.list] = index.versionId;
    const strongestOfEntry = new Map<string, ScreeningEvidence>();
    for (const form of forms) {
      for (const c of matchSubject(index, form, minScore)) {
        const result = verdict(c, thresholds);
        if (!result) continue;
        const found: ScreeningEvidence = {
          list: index.list,
          listName: LIST_NAMES[index.list] ?? index.list,
          listVersionId: index.versionId,
          entryId: c.entry.entryId,
          reference: c.entry.reference ?? null,
          entryName: c.entry.name,
          matchedName: c.matchedName,
          matchedAlias: c.matchedAlias,
          programs: c.entry.programs,
          score: c.nameScore.toFixed(3),
          result,
          agreed: c.agreed,
          differed: c.differed,
        };
        const earlier = strongestOfEntry.get(c.entry.entryId);
        if (!earlier || RANK[result] > RANK[earlier.result] || (result === earlier.result && Number(found.score) > Number(earlier.score))) {
          strongestOfEntry.set(c.entry.entryId, found);
        }
      }
    }
    evidence.push(...strongestOfEntry.values());
  }
  evidence.sort((a, b) => RANK[b.result] - RANK[a.result] || Number(b.score) - Number(a.score));
  evidence.splice(EVIDENCE_LIMIT);
  return { result: evidence[0]?.result ?? "CLEAR", evidence, listVersions };
}

/** Several providers at once: the strongest result wins, all evidence is kept. */
export function combinedScreening(...providers: ScreeningProvider[]): ScreeningProvider {
  return {
    async screen(subject, db) {
      const outcomes = await Promise.all(providers.map((p) => p.screen(subject, db)));
      return {
        result: outcomes.map((o) => o.result).reduce(strongest, "CLEAR"),
        evidence: outcomes.flatMap((o) => o.evidence).sort((a, b) => RANK[b.result] - RANK[a.result] || Number(b.score) - Number(a.score)),
        listVersions: Object.assign({}, ...outcomes.map((o) => o.listVersions)),
      };
    },
  };
}

const withMagicNames = combinedScreening(sanctionsListScreening, sandboxScreening);

/** The configured provider (SCREENING_PROVIDER); in sandbox the magic names apply on top of the lists. */
export function screeningProvider(): ScreeningProvider {
  const c = config();
  if (c.providers.screening === "sandbox") return sandboxScreening;
  return c.sandbox ? withMagicNames : sanctionsListScreening;
}
