/**
 * The labelled set (test/fixtures/screening/labelled-set.json, docs/screening-quality.md)
 * against the three shipped lists, as the provider screens: every variant of a listed individual
 * that the API accepts as a name is flagged on its own entry (at least CLOSE_MATCH, so never
 * VALID), and common names of the corridors' countries stay within the false-positive
 * targets (at most 1% flagged with a date of birth, 5% without, none BLOCKED). The evader's set is
 * test/fixtures/screening/adversarial.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { PersonName } from "@/lib/interface/api/schemas";
import { loadConfig } from "@/lib/platform/config";
import { buildIndex, lowestScore, matchSubject, verdict, type MatchIndex, type MatchSubject } from "@/lib/compliance/screening/match-index";
import { LIST_FORMATS, LISTS } from "@/lib/compliance/screening/sources";
import type { CommonName, ListedIndividual } from "../../fixtures/screening/build-labelled-set";

const set = JSON.parse(readFileSync(path.join(process.cwd(), "test", "fixtures", "screening", "labelled-set.json"), "utf8")) as {
  listed: ListedIndividual[];
  common: CommonName[];
};
// The sanctions lists (the PEP list is screened apart, lib/compliance/screening/pep.ts).
const indexes: MatchIndex[] = LISTS.map((list) => LIST_FORMATS[list]).map((format) => {
  const dir = path.join(process.cwd(), "data", "sanctions", format.list);
  const { entries } = format.parse(Object.fromEntries(format.files.map((f) => [f, readFileSync(path.join(dir, f))])));
  return buildIndex(
    format.list,
    "test",
    entries.filter((e) => e.kind === "individual"),
  );
});
const config = loadConfig({});
const thresholds = { hit: config.SCREENING_HIT_SCORE, close: config.SCREENING_CLOSE_MATCH_SCORE, closeWithBirthDate: config.SCREENING_BIRTH_DATE_MATCH_SCORE };

/** The provider's verdict on the subject (lib/compliance/screening/provider.ts screenAgainst), or on the given list entry alone. */
function screen(subject: MatchSubject, own?: { list: string; entryId: string }) {
  const verdicts = indexes.flatMap((index) =>
    matchSubject(index, subject, lowestScore(subject, thresholds))
      .filter((c) => !own || (index.list === own.list && c.entry.entryId === own.entryId))
      .map((c) => verdict(c, thresholds)),
  );
  return verdicts.includes("HIT") ? "HIT" : verdicts.includes("CLOSE_MATCH") ? "CLOSE_MATCH" : "CLEAR";
}

const accepted = (name: string) => PersonName.safeParse(name).success;
const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)}%`;

test("the set: at least 50 listed individuals from each of the three lists, with every kind of variant; 1,000+ common names of the corridors", () => {
  assert.ok(set.listed.length >= 50);
  for (const list of LISTS)
    assert.ok(
      set.listed.some((l) => l.list === list),
      list,
    );
  const kinds = new Set(set.listed.flatMap((l) => l.variants.map((v) => v.kind)));
  for (const kind of ["accentsAdded", "wordOrder", "hyphenSpace", "middleMissing", "transliteration", "initials"]) assert.ok(kinds.has(kind as never), kind);
  assert.ok(set.common.length >= 1000);
  assert.deepEqual([...new Set(set.common.map((c) => c.country))].sort(), ["COL", "ESP", "FRA", "GBR", "MEX", "NGA", "PHL", "SEN", "USA"]);
});

test("recall: no variant the API accepts stays CLEAR against its own entry (it never becomes VALID)", (t) => {
  const byKind = new Map<string, { n: number; flagged: number; hit: number }>();
  const missed: string[] = [];
  for (const l of set.listed) {
    for (const v of l.variants) {
      assert.ok(accepted(v.firstName) && accepted(v.lastName), `the API accepts ${v.firstName} ${v.lastName}`);
      const verdict = screen({ firstName: v.firstName, lastName: v.lastName, dateOfBirth: l.dateOfBirth, nationality: l.nationality }, l);
      const row = byKind.get(v.kind) ?? { n: 0, flagged: 0, hit: 0 };
      row.n++;
      if (verdict !== "CLEAR") row.flagged++;
      else missed.push(`${l.list} ${l.entryId} ${v.kind}: ${v.firstName} / ${v.lastName}`);
      if (verdict === "HIT") row.hit++;
      byKind.set(v.kind, row);
    }
  }
  let n = 0;
  let hits = 0;
  for (const [kind, r] of byKind) {
    t.diagnostic(`${kind}: ${r.n} variants, flagged ${pct(r.flagged, r.n)}, HIT ${pct(r.hit, r.n)}`);
    n += r.n;
    hits += r.hit;
  }
  t.diagnostic(`all: ${n} variants of ${set.listed.length} individuals, flagged ${pct(n - missed.length, n)}, HIT ${pct(hits, n)}`);
  assert.deepEqual(missed, []);
  // As published, in any case or accent, a listed name with the listed day of birth is a HIT
  // (BLOCKED), not merely a close match; without that day it is a case for a human.
  for (const l of set.listed.filter((l) => l.dateOfBirth && /^\d{4}-\d{2}-\d{2}$/.test(l.dateOfBirth)))
    for (const v of l.variants.filter((v) => ["published", "accentsAdded", "accentsDropped", "wordOrder", "hyphenSpace"].includes(v.kind)))
      assert.equal(
        screen({ firstName: v.firstName, lastName: v.lastName, dateOfBirth: l.dateOfBirth, nationality: l.nationality }, l),
        "HIT",
        `${v.firstName} ${v.lastName}`,
      );
});

test("the evasions of issue 19 are refused by the API and would be caught by the matcher anyway", () => {
  for (const lastName of ["Nori\u200bega", "Nor\u00adiega", "N\u043eriega", "Nori\u2060ega", "Nori\ufeffega", "Nori\u202eega", "Nori\u200dega"]) {
    assert.equal(accepted(lastName), false, JSON.stringify(lastName));
    // The list publishes no date of birth for NORIEGA: the name alone is a case, never a silent block.
    assert.equal(
      screen({ firstName: "Manuel Antonio", lastName, dateOfBirth: "1934-02-11", nationality: "MEX" }, { list: "ofac-sdn", entryId: "1572" }),
      "CLOSE_MATCH",
    );
  }
  assert.equal(
    screen({ firstName: "Rafael", lastName: "Caro-Quintero", dateOfBirth: "1980-01-01", nationality: "MEX" }, { list: "ofac-sdn", entryId: "6707" }),
    "CLOSE_MATCH",
  );
  // The UN list gives BADEGE's year of birth only: a year agreeing raises, but only the same day blocks.
  assert.equal(screen({ firstName: "Eric", lastName: "Badege", dateOfBirth: "1971-05-01" }, { list: "un-consolidated", entryId: "6907993" }), "CLOSE_MATCH");
  assert.equal(screen({ firstName: "Eric", lastName: "Badege" }, { list: "un-consolidated", entryId: "6907993" }), "CLOSE_MATCH");
});

test("false positives: common names of the corridors' countries, within issue 35's targets", (t) => {
  const withDob = set.common.map((c) => screen(c));
  const withoutDob = set.common.map((c) => screen({ ...c, dateOfBirth: null }));
  const flagged = (v: string[]) => v.filter((x) => x !== "CLEAR").length;
  const hits = (v: string[]) => v.filter((x) => x === "HIT").length;
  const n = set.common.length;
  t.diagnostic(`with date of birth (profiles): flagged ${flagged(withDob)} of ${n} (${pct(flagged(withDob), n)}), HIT ${hits(withDob)}`);
  t.diagnostic(`without date of birth (beneficiaries): flagged ${flagged(withoutDob)} of ${n} (${pct(flagged(withoutDob), n)}), HIT ${hits(withoutDob)}`);
  // The false-positive targets: with a date of birth at most 1% open a case, without at most 5%; none is
  // BLOCKED (a HIT needs the same day of birth as a listed person's).
  assert.ok(flagged(withDob) / n <= 0.01, "profiles: at most 1% flagged");
  assert.ok(flagged(withoutDob) / n <= 0.05, "beneficiaries: at most 5% flagged");
  assert.equal(hits(withDob), 0);
  assert.equal(hits(withoutDob), 0);
});
