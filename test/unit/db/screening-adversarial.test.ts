/**
 * The evader's labelled set on the database (PGlite, and PostgreSQL with TEST_DB_URL): the fixed sample of
 * the adversarial labelled set (test/fixtures/screening/adversarial/sample.json, written by
 * generate.ts: every transformation family alone and in pairs, over the three lists, and common
 * names of the corridors' countries), screened through the stored lists by the sanctions provider
 * as production screens. Targets: no variant given with the listed date of birth is CLEAR (the
 * subject would become VALID); the exact listed name with a self-declared other date of birth, or
 * none, is a case for a human (CLOSE_MATCH: not cleared, not blocked); of the common names at most
 * 1% open a case with their own date of birth and 5% without, none BLOCKED. The whole set and its
 * figures: npm run screening:quality (docs/screening-quality.md).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import type { Db } from "@/db";
import { PersonName } from "@/lib/interface/api/schemas";
import { clock } from "@/lib/platform/clock";
import { importPublication, shippedSources } from "@/lib/compliance/screening/list-store";
import { sanctionsListScreening, type ScreeningResult, type ScreeningSubject } from "@/lib/compliance/screening/provider";
import { LISTS } from "@/lib/compliance/screening/sources";
import { freshDb } from "../../support/db";
import type { Sample, Variant } from "../../fixtures/screening/adversarial/generate";

const sample = JSON.parse(readFileSync(path.join(process.cwd(), "test", "fixtures", "screening", "adversarial", "sample.json"), "utf8")) as Sample;
const FAMILIES = ["a", "b", "c", "d", "e", "f", "g", "h"];
const KEYS = ["exact", ...FAMILIES, ...FAMILIES.flatMap((x, i) => FAMILIES.slice(i + 1).map((y) => `${x}+${y}`))];

let db: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, close } = await freshDb());
  // The shipped lists as stored versions (on a shared PostgreSQL database, already stored ones are kept).
  for (const list of LISTS) await importPublication(db, shippedSources(list), clock.now());
});
after(() => close());

/** The subject as a profile or beneficiary carries it (middle names where the variant has a middle field). */
function subjectOf(v: Variant): ScreeningSubject {
  const subject: ScreeningSubject & { middleNames?: string[] } = {
    firstName: v.firstName,
    lastName: v.lastName,
    dateOfBirth: v.dateOfBirth,
    nationality: v.nationality,
  };
  if (v.middleNames) subject.middleNames = v.middleNames;
  return subject;
}
const screen = async (s: ScreeningSubject): Promise<ScreeningResult> => (await sanctionsListScreening.screen(s, db)).result;
const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)}%`;
const show = (v: Variant) =>
  `${v.key} ${v.list} ${v.entryId}: "${v.firstName}${v.middleNames ? ` (${v.middleNames.join(" ")})` : ""} / ${v.lastName}" ${v.dateOfBirth ?? "-"} (${v.published})`;

test("the sample: every family alone and in every pair, each list, with the listed date of birth; names the API accepts", () => {
  const listed = sample.variants.filter((v) => v.dobMode === "listed");
  for (const key of KEYS) assert.ok(listed.filter((v) => v.key === key).length >= 5, key);
  for (const list of LISTS)
    assert.ok(
      listed.some((v) => v.list === list),
      list,
    );
  assert.ok(listed.length >= 250 && sample.common.length >= 300);
  for (const v of sample.variants)
    for (const field of [v.firstName, v.lastName, ...(v.middleNames ?? [])])
      assert.equal(PersonName.safeParse(field).data, field, `the API accepts ${JSON.stringify(field)}`);
});

test("no variant given with the listed date of birth is CLEAR (none would become VALID)", async (t) => {
  const listed = sample.variants.filter((v) => v.dobMode === "listed");
  const results = new Map<string, ScreeningResult[]>();
  const missed: string[] = [];
  for (const v of listed) {
    const r = await screen(subjectOf(v));
    results.set(v.key, [...(results.get(v.key) ?? []), r]);
    if (r === "CLEAR") missed.push(show(v));
  }
  for (const [key, rs] of results)
    t.diagnostic(
      `${key}: ${rs.length}, VALID ${rs.filter((r) => r === "CLEAR").length}, CLOSE_MATCH ${rs.filter((r) => r === "CLOSE_MATCH").length}, HIT ${rs.filter((r) => r === "HIT").length}`,
    );
  t.diagnostic(`all: ${listed.length} variants, ${missed.length} VALID (${pct(missed.length, listed.length)})`);
  assert.deepEqual(missed, []);
});

test("the exact listed name with a self-declared other date of birth, or none, is a case for a human: CLOSE_MATCH", async (t) => {
  const exact = sample.variants.filter((v) => v.key === "exact" && v.dobMode !== "listed");
  assert.ok(exact.length >= 6);
  const wrong: string[] = [];
  for (const v of exact) {
    const r = await screen(subjectOf(v));
    if (r !== "CLOSE_MATCH") wrong.push(`${r}: ${show(v)}`);
  }
  // Variants with another or no date of birth: measured (the harness reports them per family).
  const others = sample.variants.filter((v) => v.key !== "exact" && v.dobMode !== "listed");
  const cleared = (await Promise.all(others.map(async (v) => (await screen(subjectOf(v))) === "CLEAR"))).filter(Boolean).length;
  t.diagnostic(`variants with another or no date of birth: ${others.length}, CLEAR ${cleared}`);
  assert.deepEqual(wrong, []);
});

test("common names of the corridors: none BLOCKED, and no more cases than measured with their date of birth (target 1%) and without (target 5%)", async (t) => {
  const n = sample.common.length;
  const withDob: string[] = [];
  const withoutDob: string[] = [];
  const blocked: string[] = [];
  for (const c of sample.common) {
    const base = { firstName: c.firstName, lastName: c.lastName, nationality: c.country };
    const a = await screen({ ...base, dateOfBirth: c.dateOfBirth });
    const b = await screen({ ...base, dateOfBirth: null });
    const name = `${c.firstName} ${c.lastName} (${c.country})`;
    if (a !== "CLEAR") withDob.push(`${name}: ${a}`);
    if (b !== "CLEAR") withoutDob.push(`${name}: ${b}`);
    if (a === "HIT" || b === "HIT") blocked.push(`${name}: ${a} with ${c.dateOfBirth}, ${b} without`);
  }
  t.diagnostic(`with their date of birth: ${withDob.length} of ${n} (${pct(withDob.length, n)}) ${JSON.stringify(withDob)}`);
  t.diagnostic(`without: ${withoutDob.length} of ${n} (${pct(withoutDob.length, n)}) ${JSON.stringify(withoutDob)}`);
  assert.deepEqual(blocked, [], "none BLOCKED");
  // Measured: 3 with their date of birth (Jorge Castaño on CASTRO, Jorge; Ali Saleem on ALI, Salem;
  // Muhammad Hussain on HUSAIN, Zain Al-Abidin Muhammad: names the lists carry, spelt alike) and 6
  // without. The whole set's 2,200 are at 1.0% and 2.0% (docs/screening-quality.md). The bounds are
  // the measured figures, so a looser matcher fails here.
  assert.ok(withDob.length <= 3, `with their date of birth no more than measured (3): ${withDob.length} of ${n}`);
  assert.ok(withoutDob.length <= 6, `without a date of birth no more than measured (6): ${withoutDob.length} of ${n}`);
});
