/**
 * The looser comparison of a name whose date of birth agrees (lib/compliance/screening/match-index.ts
 * matchWithBirthDate): an evader who types the listed date of birth and combines two moves (a typo
 * inside a split word, a typo in a transliteration, a short name's vowel) still opens a case; the
 * same name with another date of birth, or none, is judged by the name alone; where the nationality
 * agrees too, vowels are folded (a transliteration and a typo in one short word); one word in common
 * is never enough; and such a match is never a HIT (BLOCKED).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadConfig } from "@/lib/platform/config";
import { buildIndex, lowestScore, matchSubject, verdict, type IndexEntry, type MatchIndex, type MatchSubject } from "@/lib/compliance/screening/match-index";

const entry = (entryId: string, name: string, datesOfBirth: string[], aliases: string[] = [], nationalities: string[] = []): IndexEntry => ({
  entryId,
  name,
  programs: ["SDGT"],
  datesOfBirth,
  nationalities,
  aliases: aliases.map((a) => ({ name: a })),
});
const index = buildIndex("test", "v1", [
  entry("1", "RADWAN, Jalal", ["1971-03-14"]),
  entry("2", "TUN, Soe", ["1966-09-02"]),
  entry("3", "HAMDAN, Yusuf", ["1958"]),
  entry("4", "OKONJO, Tunde", ["1980-05-05"]),
  entry("5", "HAMMAMI, Omar", ["1984-05-06"], [], ["USA"]),
  entry("6", "ALEM, Ermias", ["1980"], [], ["ERI"]),
]);
const config = loadConfig({});
const thresholds = { hit: config.SCREENING_HIT_SCORE, close: config.SCREENING_CLOSE_MATCH_SCORE, closeWithBirthDate: config.SCREENING_BIRTH_DATE_MATCH_SCORE };

/** The strongest verdict of a screening against `against`. */
function resultAgainst(against: MatchIndex, subject: MatchSubject): string {
  const verdicts = matchSubject(against, subject, lowestScore(subject, thresholds)).map((c) => verdict(c, thresholds));
  return verdicts.includes("HIT") ? "HIT" : verdicts.includes("CLOSE_MATCH") ? "CLOSE_MATCH" : "CLEAR";
}

const result = (subject: MatchSubject) => resultAgainst(index, subject);

test("a typo and a split surname with the listed day of birth is a case, never a block; with another day or none, the name alone decides", () => {
  const name = { firstName: "Jalla", lastName: "Ra. dwn" };
  assert.equal(result({ ...name, dateOfBirth: "1971-03-14" }), "CLOSE_MATCH");
  assert.equal(result({ ...name, dateOfBirth: "1958-01-01" }), "CLEAR");
  assert.equal(result({ ...name, dateOfBirth: null }), "CLEAR");
});

test("a short name's vowels with the listed day of birth", () => {
  assert.equal(result({ firstName: "Sue", lastName: "Toon", dateOfBirth: "1966-09-02" }), "CLOSE_MATCH");
  assert.equal(result({ firstName: "Sue", lastName: "Toon", dateOfBirth: "1967-09-02" }), "CLEAR");
  assert.equal(result({ firstName: "Sue", lastName: "Toon", dateOfBirth: null }), "CLEAR");
});

test("only the year published: the same year with a misspelt, split name is a case; another year is not", () => {
  assert.equal(result({ firstName: "Yusf", lastName: "Ha. mdn", dateOfBirth: "1958-06-20" }), "CLOSE_MATCH");
  assert.equal(result({ firstName: "Yusf", lastName: "Ha. mdn", dateOfBirth: "1959-06-20" }), "CLEAR");
  // Three-letter words of another length are in a name only where the day agrees.
  assert.equal(result({ firstName: "Yus", lastName: "Ham", dateOfBirth: "1958-01-01" }), "CLEAR");
});

test("one word in common with the listed day of birth is not a case", () => {
  assert.equal(result({ firstName: "Tunde", lastName: "Adeyemi", dateOfBirth: "1980-05-05" }), "CLEAR");
  assert.equal(result({ firstName: "Ada", lastName: "Okonjo", dateOfBirth: "1980-05-05" }), "CLEAR");
});

test("with the nationality agreeing too, vowels are folded: a transliterated short name with a typo is a case; with another nationality or none it is not", () => {
  // "Moer": Omer (Omar) with two letters swapped; the listed day of birth.
  assert.equal(result({ firstName: "Moer", lastName: "Hammmami", dateOfBirth: "1984-05-06", nationality: "USA" }), "CLOSE_MATCH");
  assert.equal(result({ firstName: "Moer", lastName: "Hammmami", dateOfBirth: "1984-05-06", nationality: "GBR" }), "CLEAR");
  assert.equal(result({ firstName: "Moer", lastName: "Hammmami", dateOfBirth: "1984-05-06" }), "CLEAR");
  // Only the year published. "Urmoas": Ermias with its vowels changed (u for e is neither a
  // spelling of that vowel nor a key beside it: not slips).
  assert.equal(result({ firstName: "Urmoas", lastName: "Alem", dateOfBirth: "1980-11-02", nationality: "ERI" }), "CLOSE_MATCH");
  assert.equal(result({ firstName: "Urmoas", lastName: "Alem", dateOfBirth: "1980-11-02", nationality: "ETH" }), "CLEAR");
  assert.equal(result({ firstName: "Urmoas", lastName: "Alem", dateOfBirth: "1980-11-02" }), "CLEAR");
  assert.equal(result({ firstName: "Urmoas", lastName: "Alem", dateOfBirth: "1981-11-02", nationality: "ERI" }), "CLEAR");
  // "Armoas" is two slips from Ermias (a for e, a spelling of one vowel; o for i, the key beside
  // it) in a whole name of two words: a case with the year whatever the nationality.
  assert.equal(result({ firstName: "Armoas", lastName: "Alem", dateOfBirth: "1980-11-02", nationality: "ERI" }), "CLOSE_MATCH");
  assert.equal(result({ firstName: "Armoas", lastName: "Alem", dateOfBirth: "1980-11-02", nationality: "ETH" }), "CLOSE_MATCH");
  assert.equal(result({ firstName: "Armoas", lastName: "Alem", dateOfBirth: "1981-11-02", nationality: "ERI" }), "CLEAR");
});

// Entries as the lists publish them (OFAC SDN and the UN list), with their published dates of birth.
const evaded = buildIndex("test", "v1", [
  entry("10", "HASSAN, Basil", ["1986/1988"]),
  entry("11", "AHMAD DERAKHSHANDEH", ["1956-08-11"]),
  entry("12", "AL-HAYYEH, Khalil", ["1960"]),
  entry("13", "AHMAD ZIA AGHA", ["1974"]),
  entry("14", "NAJJAR, Khamis", ["1949"]),
  entry("15", "ABU SEIR, Daoud", ["1955"]),
  entry("16", "ELSHAFEE EL SHEIKH", ["1988-07-16"], ["ELSHEIKH, El Shafee"], ["GBR"]),
  entry("17", "MOHAMED OMAR MOHAMED", ["1976"]),
  entry("18", "ABU GREIN, Musab", ["1982/1983"], [], ["LBY"]),
]);

const evadedResult = (subject: MatchSubject) => resultAgainst(evaded, subject);

/** A case with the listed date of birth; with a date of birth years away, the name alone decides (these are not names alone). */
function caseOnlyWithTheDate(subject: MatchSubject, otherDate: string) {
  assert.equal(evadedResult(subject), "CLOSE_MATCH", `${subject.firstName} / ${subject.lastName} with ${subject.dateOfBirth}`);
  assert.equal(evadedResult({ ...subject, dateOfBirth: otherDate }), "CLEAR", `${subject.firstName} / ${subject.lastName} with ${otherDate}`);
}

test("alternative spellings with the listed date of birth: x for kh or h (Somali, Uzbek), ch for kh (German), q for gh (Persian), a doubled consonant", () => {
  caseOnlyWithTheDate({ firstName: "Basil Abu Omar", lastName: "Xasan", dateOfBirth: "1988-03-26" }, "1970-03-26");
  caseOnlyWithTheDate({ firstName: "Ahmad", lastName: "Derxashandh", dateOfBirth: "1956-08-11" }, "1970-08-11");
  caseOnlyWithTheDate({ firstName: "Chall", lastName: "Le Hayyyeh", dateOfBirth: "1960-08-10" }, "1970-08-10");
  caseOnlyWithTheDate({ firstName: "Ahmat", lastName: "Aqa", dateOfBirth: "1974-08-19" }, "1984-08-19");
  caseOnlyWithTheDate({ firstName: "Hamis", lastName: "Nazhhjar", dateOfBirth: "1949-02-04" }, "1959-02-04");
});

test("a title typed where the listed name has that word (Sir for SEIR, Sheikh for ELSHEIKH) counts as a word in common, with the listed date of birth", () => {
  caseOnlyWithTheDate({ firstName: "Daooud", lastName: "Sir", dateOfBirth: "1955-11-10" }, "1965-11-10");
  caseOnlyWithTheDate({ firstName: "Elshafeeel Omar", lastName: "Sheikh", dateOfBirth: "1988-07-16", nationality: "GBR" }, "1978-07-16");
  // A title the listed name does not have is not a word in common: one word is not enough.
  assert.equal(evadedResult({ firstName: "Haji Daoud", lastName: "Smith", dateOfBirth: "1955-11-10" }), "CLEAR");
  assert.equal(evadedResult({ firstName: "Sir Daoud", lastName: "Smith", dateOfBirth: "1955-11-10" }), "CLOSE_MATCH");
});

test("a typo in a spelling of a transliteration class (Mhemet for Mehmet, one of Mohamed's) with the listed year of birth is a case", () => {
  caseOnlyWithTheDate({ firstName: "Mhemet Oma", lastName: "Mohamde", dateOfBirth: "1976-12-18" }, "1986-12-18");
});

test("a capital inside a word starts a word: AnGrein is An Grein", () => {
  caseOnlyWithTheDate({ firstName: "Musab", lastName: "AnGrein", dateOfBirth: "1982-06-13", nationality: "LBY" }, "1992-06-13");
});

// Entries that publish only a year of birth, as the lists write them: OFAC "SURNAME, Given", the UN given names first.
const shortened = buildIndex("test", "v1", [
  entry("20", "BADRI, Gabril Abdul Kareem", ["1961"]),
  entry("21", "ALY SOLIMAN MASSOUD ABDUL SAYED", ["1969"], [], ["LBY"]),
  entry("22", "BOSCO TAGANDA", ["1973/1974"], [], ["COD"]),
]);

const shortenedResult = (subject: MatchSubject) => resultAgainst(shortened, subject);

test("the listed surname and a given name, each misspelt, with the listed year of birth are a case whatever else either name has", () => {
  // Two of the listed name's four words, two of the subject's five ("Abdul" split and misspelt, "Kareem" misspelt).
  assert.equal(shortenedResult({ firstName: "Gwbril Bad al Kraiem", lastName: "Badr", dateOfBirth: "1961-10-26" }), "CLOSE_MATCH");
  assert.equal(shortenedResult({ firstName: "Gwbril Bad al Kraiem", lastName: "Badr", dateOfBirth: "1971-10-26" }), "CLEAR");
  // Where the list does not say which words are the surname: the first and the last (two of five).
  assert.equal(shortenedResult({ firstName: "Aly", lastName: "Xayed", dateOfBirth: "1969-08-27" }), "CLOSE_MATCH");
  assert.equal(shortenedResult({ firstName: "Aly", lastName: "Xayed", dateOfBirth: "1979-08-27" }), "CLEAR");
  // Given names without the surname are not the name shortened: the shares still apply.
  assert.equal(shortenedResult({ firstName: "Gwbril Abdul Tom", lastName: "Jones Brown", dateOfBirth: "1961-10-26" }), "CLEAR");
  // Middle words without the first or the last are not either.
  assert.equal(shortenedResult({ firstName: "Soliman Tom Ray", lastName: "Massoud", dateOfBirth: "1969-08-27" }), "CLEAR");
});

test("the nationality agreeing as well as the year allows the edits of the day: a surname two edits away is a case; without the nationality, or with another, it is not", () => {
  // "Fagnadeh": TAGANDA with a letter changed, two swapped and -eh for -a.
  assert.equal(shortenedResult({ firstName: "Busco", lastName: "Fagnadeh", dateOfBirth: "1973-03-14", nationality: "COD" }), "CLOSE_MATCH");
  assert.equal(shortenedResult({ firstName: "Busco", lastName: "Fagnadeh", dateOfBirth: "1973-03-14" }), "CLEAR");
  assert.equal(shortenedResult({ firstName: "Busco", lastName: "Fagnadeh", dateOfBirth: "1973-03-14", nationality: "RWA" }), "CLEAR");
  assert.equal(shortenedResult({ firstName: "Busco", lastName: "Fagnadeh", dateOfBirth: "1983-03-14", nationality: "COD" }), "CLEAR");
});

// KONY, Ali as OFAC SDN publishes him: four years of birth, no nationality.
const slipped = buildIndex("test", "v1", [entry("30", "KONY, Ali", ["1994", "1995", "1993", "1992"])]);

const slippedResult = (subject: MatchSubject) => resultAgainst(slipped, subject);

test("slips in every word of the whole name (a key next to the intended one, a vowel's other spelling, a final vowel, a doubled letter) with a listed year of birth are a case; another edit, a word more or another year is not", () => {
  // "Qlli": Ali with the q beside the a and the l doubled; "Kun": Kony with o written u and the final y dropped.
  assert.equal(slippedResult({ firstName: "Qlli", lastName: "Kun", dateOfBirth: "1993-04-11" }), "CLOSE_MATCH");
  assert.equal(slippedResult({ firstName: "Kun", lastName: "Qlli", dateOfBirth: "1995-12-01" }), "CLOSE_MATCH");
  assert.equal(slippedResult({ firstName: "Qlli", lastName: "Kun", dateOfBirth: "1990-04-11" }), "CLEAR");
  assert.equal(slippedResult({ firstName: "Qlli", lastName: "Kun", dateOfBirth: null }), "CLEAR");
  // k is not beside a: a change, not a slip.
  assert.equal(slippedResult({ firstName: "Klli", lastName: "Kun", dateOfBirth: "1993-04-11" }), "CLEAR");
  // Two keys beside the intended ones in one short word (s for a, o for i) are another name.
  assert.equal(slippedResult({ firstName: "Slo", lastName: "Kun", dateOfBirth: "1993-04-11" }), "CLEAR");
  // The whole of both names, word for word: a word more is not the name slipped.
  assert.equal(slippedResult({ firstName: "Qlli", middleNames: ["Musa"], lastName: "Kun", dateOfBirth: "1993-04-11" }), "CLEAR");
  // Common names near it.
  assert.equal(slippedResult({ firstName: "Ella", lastName: "Kane", dateOfBirth: "1993-04-11" }), "CLEAR");
  assert.equal(slippedResult({ firstName: "Olli", lastName: "Kuhn", dateOfBirth: "1994-07-30" }), "CLEAR");
});
