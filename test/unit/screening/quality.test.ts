/**
 * Screening quality on the labelled set (docs/screening-quality.md): recall on listed individuals
 * under realistic variations, false positives on common names that are not listed. The bounds are
 * the documented figures with a small margin, so a matcher change that loses quality fails here.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadConfig } from "@/lib/platform/config";
import { buildIndex, lowestScore, matchSubject, verdict as decide, type MatchSubject } from "@/lib/compliance/screening/match-index";
import { commonNames, listedCases, shippedEntries, VARIATIONS } from "./labelled-set";

const entries = shippedEntries();
const index = buildIndex(
  "ofac-sdn",
  "test",
  entries.filter((e) => e.kind === "individual"),
);
const config = loadConfig({});
const thresholds = { hit: config.SCREENING_HIT_SCORE, close: config.SCREENING_CLOSE_MATCH_SCORE, closeWithBirthDate: config.SCREENING_BIRTH_DATE_MATCH_SCORE };

function verdict(subject: MatchSubject, entryId?: string): "HIT" | "CLOSE_MATCH" | "CLEAR" {
  const verdicts = matchSubject(index, subject, lowestScore(subject, thresholds))
    .filter((c) => entryId === undefined || c.entry.entryId === entryId)
    .map((c) => decide(c, thresholds));
  return verdicts.includes("HIT") ? "HIT" : verdicts.includes("CLOSE_MATCH") ? "CLOSE_MATCH" : "CLEAR";
}

const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)}%`;

test("labelled set: at least 200 listed names in every variation, 200 common names not listed", () => {
  const listed = listedCases(entries);
  assert.ok(listed.length >= 200);
  for (const v of VARIATIONS) assert.ok(listed.filter((c) => c.variation === v).length >= 30, v);
  assert.equal(new Set(listed.map((c) => c.entryId)).size, listed.length, "distinct individuals");
  assert.equal(commonNames(entries).length, 200);
});

test("recall: listed individuals are flagged (HIT or CLOSE_MATCH) against their own entry", (t) => {
  const listed = listedCases(entries);
  const rows = VARIATIONS.map((v) => {
    const cases = listed.filter((c) => c.variation === v);
    const verdicts = cases.map((c) => verdict(c.subject, c.entryId));
    return { v, n: cases.length, hit: verdicts.filter((x) => x === "HIT").length, flagged: verdicts.filter((x) => x !== "CLEAR").length };
  });
  const flagged = rows.reduce((s, r) => s + r.flagged, 0);
  const hits = rows.reduce((s, r) => s + r.hit, 0);
  for (const r of rows) t.diagnostic(`${r.v}: ${r.n} names, flagged ${pct(r.flagged, r.n)}, HIT ${pct(r.hit, r.n)}`);
  t.diagnostic(`all: ${listed.length} names, recall ${pct(flagged, listed.length)}, HIT ${pct(hits, listed.length)}`);
  assert.ok(flagged / listed.length >= 0.97, `recall ${pct(flagged, listed.length)}`);
  // Exact spellings (case, accents, order, alias) with the listed day of birth are HITs, not
  // merely close matches; a HIT needs that day, so the others are cases.
  const byId = new Map(entries.map((e) => [e.entryId, e]));
  for (const c of listed.filter((x) => ["lowerCase", "accents", "reordered", "alias"].includes(x.variation))) {
    const sameDay = !!c.subject.dateOfBirth && byId.get(c.entryId)!.datesOfBirth.includes(c.subject.dateOfBirth);
    assert.equal(verdict(c.subject, c.entryId), sameDay ? "HIT" : "CLOSE_MATCH", `${c.variation}: ${c.subject.firstName} ${c.subject.lastName}`);
  }
});

test("false positives: common names with a date of birth (profiles) and without (beneficiaries)", (t) => {
  const common = commonNames(entries);
  const withDob = common.map((s) => verdict(s));
  const withoutDob = common.map((s) => verdict({ ...s, dateOfBirth: null }));
  const flagged = (v: string[]) => v.filter((x) => x !== "CLEAR").length;
  const hits = (v: string[]) => v.filter((x) => x === "HIT").length;
  t.diagnostic(`with date of birth: flagged ${pct(flagged(withDob), 200)}, HIT ${pct(hits(withDob), 200)}`);
  t.diagnostic(`without date of birth: flagged ${pct(flagged(withoutDob), 200)}, HIT ${pct(hits(withoutDob), 200)}`);
  assert.ok(flagged(withDob) / 200 <= 0.02, "profiles: at most 2% flagged");
  assert.ok(flagged(withoutDob) / 200 <= 0.06, "beneficiaries: at most 6% flagged");
  assert.ok(hits(withoutDob) / 200 <= 0.01, "at most 1% HIT");
});
