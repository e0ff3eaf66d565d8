/**
 * The three shipped lists: each format's importer on the shipped files, the one
 * matching form of names, and the UN's "Low" quality aliases matched only exactly.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import type { SanctionedEntry } from "@/lib/compliance/screening/entity";
import { buildIndex, matchSubject, warmUp } from "@/lib/compliance/screening/match-index";
import { matchingForm, nameTokens } from "@/lib/compliance/screening/names";
import { LIST_FORMATS } from "@/lib/compliance/screening/sources";

function shipped(list: string): SanctionedEntry[] {
  const format = LIST_FORMATS[list];
  const dir = path.join(process.cwd(), "data", "sanctions", list);
  return format.parse(Object.fromEntries(format.files.map((f) => [f, readFileSync(path.join(dir, f))]))).entries;
}

const kinds = (entries: SanctionedEntry[]) => entries.reduce<Record<string, number>>((k, e) => ({ ...k, [e.kind]: (k[e.kind] ?? 0) + 1 }), {});
const aliasCount = (entries: SanctionedEntry[]) => entries.reduce((n, e) => n + e.aliases.length, 0);

test("UN consolidated XML: 730 individuals and 273 entities, regime, reference, dates of birth, nationalities, alias quality", () => {
  const entries = shipped("un-consolidated");
  assert.deepEqual(kinds(entries), { individual: 730, entity: 273 });
  // 2,752 ALIAS_NAME values (data/sanctions/un-consolidated/README.md) plus the 378 names in their original script (NAME_ORIGINAL_SCRIPT).
  assert.equal(aliasCount(entries), 2752 + 378);
  const badege = entries.find((e) => e.name === "ERIC BADEGE")!;
  assert.equal(badege.entryId, "6907993");
  assert.equal(badege.reference, "CDi.001");
  assert.deepEqual(badege.programs, ["DRC"]);
  assert.deepEqual(badege.datesOfBirth, ["1971"]);
  assert.deepEqual(badege.nationalities, ["COD"]);
  const kakolele = entries.find((e) => e.reference === "CDi.002")!;
  assert.equal(kakolele.name, "FRANK KAKOLELE BWAMBALE");
  assert.deepEqual(
    kakolele.aliases.map((a) => [a.name, a.quality]),
    [
      ["FRANK KAKORERE", null],
      ["FRANK KAKORERE BWAMBALE", null],
      ["AIGLE BLANC", null],
    ],
  );
  assert.equal(entries.flatMap((e) => e.aliases).filter((a) => a.aliasType === "Low" && a.quality === "low").length, 615);
  assert.ok(
    entries.some((e) => e.datesOfBirth.some((d) => /^\d{4}\/\d{4}$/.test(d))),
    "BETWEEN dates as a year range",
  );
});

test("OFAC consolidated (non-SDN) CSV: 442 entries (79 individuals) and 1,073 aliases, programs as published", () => {
  const entries = shipped("ofac-consolidated");
  // cons_prim.csv has 443 lines: 442 entries and the Ctrl-Z end-of-file byte on a line of its own.
  assert.equal(entries.length, 442);
  assert.deepEqual(kinds(entries), { individual: 79, entity: 363 });
  assert.equal(aliasCount(entries), 1073);
  const haniya = entries.find((e) => e.entryId === "9639")!;
  assert.equal(haniya.name, "HANIYA, Ismail Abdul Salah");
  assert.deepEqual(haniya.programs, ["NS-PLC"]);
  assert.deepEqual(haniya.datesOfBirth, ["1962"]);
});

test("one matching form: invisible characters removed, lookalikes to Latin, other scripts transliterated", () => {
  for (const evasion of [
    "Nori\u200bega",
    "Nor\u00adiega",
    "N\u043eriega",
    "Nori\u2060ega",
    "\ufeffNoriega",
    "Nori\u200d\u200cega",
    "\u202eNoriega\u202c",
    "NORIEGA",
    "Nóriega",
    "Ｎoriega",
  ]) {
    assert.equal(matchingForm(evasion), "noriega", JSON.stringify(evasion));
  }
  assert.equal(matchingForm("Caro-Quintero"), matchingForm("Caro Quintero"));
  assert.equal(matchingForm("CARO QUINTERO, Rafael"), "caro quintero rafael");
  assert.equal(matchingForm("Кузнецов"), "kuznetsov", "a wholly Cyrillic word is transliterated, not skeletonised");
  assert.deepEqual(nameTokens("Dr. José  O'Brien-Núñez"), ["jose", "obrien", "nunez"]);
  assert.deepEqual(nameTokens("STRAßE Ørsted"), ["strasse", "orsted"]);
});

test('UN "Low" quality aliases match only exactly; "Good" ones like any name', () => {
  const entry = {
    entryId: "1",
    name: "JOHN QWERTYUIOP",
    programs: ["X"],
    datesOfBirth: [],
    nationalities: [],
    aliases: [
      { name: "Abu Zakariyya Makhzumi", quality: "low" as const },
      { name: "Vladislav Ottokarovich", quality: null },
    ],
  };
  const index = buildIndex("un-consolidated", "v", [entry]);
  const found = (firstName: string, lastName: string) => matchSubject(index, { firstName, lastName }, 0.85).length > 0;
  assert.equal(found("Abu Zakariyya", "Makhzumi"), true, "exactly");
  assert.equal(found("Makhzumi", "Abu Zakariyya"), true, "exactly, in any order");
  assert.equal(found("Abu Zakariya", "Makhzumi"), false, "a low quality alias with one letter less is not a match");
  assert.equal(found("Vladislav", "Ottokarovic"), true, "a good alias matches with a typo");
});

test("warmUp: an index warmed up before it serves gives the same candidates and keeps no word it screened", () => {
  const entries = shipped("un-consolidated").filter((e) => e.kind === "individual");
  const cold = buildIndex("un-consolidated", "v", entries);
  const warmed = buildIndex("un-consolidated", "v", entries);
  warmUp(warmed);
  assert.equal(warmed.seen.size, 0, "the word cache is emptied after the warm-up");
  const subjects = [
    { firstName: "Eric", lastName: "Badege", dateOfBirth: "1971-03-02", nationality: "COD" },
    { firstName: "Frank", middleNames: ["Kakorere"], lastName: "Bwambale", dateOfBirth: null, nationality: null },
    { firstName: "Mary", lastName: "Smith", dateOfBirth: "1980-01-01", nationality: "GBR" },
  ];
  for (const subject of subjects) {
    const names = (index: typeof cold) => matchSubject(index, subject, 0.5).map((c) => [c.entry.entryId, c.matchedName, c.nameScore, c.whole, c.birthDate]);
    assert.deepEqual(names(warmed), names(cold), `${subject.firstName} ${subject.lastName}`);
  }
  assert.ok(matchSubject(warmed, subjects[0], 0.5).length > 0, "the listed name is found");
});
