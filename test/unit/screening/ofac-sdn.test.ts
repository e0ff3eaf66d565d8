/** The OFAC SDN importer (lib/compliance/screening/sources/ofac-sdn) on the shipped files, and name normalisation. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { nameTokens, naturalOrder } from "@/lib/compliance/screening/names";
import { parseDateOfBirth, parseRemarks } from "@/lib/compliance/screening/sources/ofac-sdn/remarks";
import { shippedEntries } from "./labelled-set";

const entries = shippedEntries();

test("the shipped files give 8,976 entries and 11,910 aliases (Ctrl-Z and CR LF handled)", () => {
  assert.equal(entries.length, 8976);
  assert.equal(
    entries.reduce((n, e) => n + e.aliases.length, 0),
    11910,
  );
  assert.ok(entries.every((e) => !e.name.includes("\x1a") && !e.name.includes("\r")));
  const kinds: Record<string, number> = {};
  for (const e of entries) kinds[e.kind] = (kinds[e.kind] ?? 0) + 1;
  assert.deepEqual(kinds, { entity: 3673, individual: 4620, vessel: 406, aircraft: 277 });
});

test("an entry carries its programs, aliases, dates of birth, nationalities and address countries", () => {
  const abbas = entries.find((e) => e.entryId === "2674")!;
  assert.equal(abbas.name, "ABBAS, Abu");
  assert.deepEqual(abbas.programs, ["SDGT"]);
  assert.deepEqual(abbas.aliases, [{ aliasId: "1795", aliasType: "aka", name: "ZAYDAN, Muhammad", quality: null }]);
  assert.deepEqual(abbas.datesOfBirth, ["1948-12-10"]);
  const noriega = entries.find((e) => e.entryId === "1572")!;
  assert.deepEqual(noriega.countries, ["PAN"]);
  assert.equal(noriega.remarks, null, "`-0-` is empty");
  // Nationalities come out as ISO alpha-3 codes, OFAC spellings included.
  assert.ok(entries.some((e) => e.nationalities.includes("PRK")));
  assert.ok(entries.filter((e) => e.kind === "individual" && e.datesOfBirth.length > 0).length > 4000);
});

test("remarks: dates of birth as published, nationality and citizenship", () => {
  assert.equal(parseDateOfBirth("15 Jan 1960"), "1960-01-15");
  assert.equal(parseDateOfBirth("Feb 1965"), "1965-02");
  assert.equal(parseDateOfBirth("circa 1970"), "1970");
  assert.equal(parseDateOfBirth("1958 to 1962"), "1958/1962");
  assert.equal(parseDateOfBirth("01 Jan 1958 to 31 Dec 1962"), "1958/1962");
  assert.equal(parseDateOfBirth("unknown"), null);
  assert.deepEqual(parseRemarks("DOB 10 Dec 1948; alt. DOB 1949; POB Damascus; nationality Syria; citizen Korea, North; Gender Male."), {
    datesOfBirth: ["1948-12-10", "1949"],
    nationalities: ["SYR", "PRK"],
  });
});

test("names: case, diacritics, punctuation, honorifics and SURNAME, Given order", () => {
  assert.deepEqual(nameTokens("Dr. José  O'Brien-Núñez"), ["jose", "obrien", "nunez"]);
  assert.deepEqual(nameTokens("MR STRAßE Ørsted"), ["strasse", "orsted"]);
  assert.equal(naturalOrder("NORIEGA, Manuel Antonio"), "Manuel Antonio NORIEGA");
  assert.equal(naturalOrder("BANCO NACIONAL DE CUBA"), "BANCO NACIONAL DE CUBA");
});
