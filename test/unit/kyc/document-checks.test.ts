/**
 * The pure parts of automatic KYC: the zone's lines found in OCR text, a passport number's
 * lookalike swaps settled by check digits (never by a guess), names compared in the matching form
 * (a name cut at the zone's end), and the verdict: any failed check is a person's.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { checkDocument, mrzCheckDigit, mrzDate, namesAgree, numbersAgree } from "@/lib/identity/kyc/verification/document-checks";
import { mrzCandidates, parseCandidates } from "@/lib/identity/kyc/verification/mrz-read";
import { verdictOf } from "@/lib/identity/kyc/verification/provider";
import { passportMrz, syntheticPerson } from "../../../scripts/kyc/synthetic-document";

const NOW = new Date("2026-11-29T00:00:00Z");
const P = { ...syntheticPerson(4, NOW), lastName: "Núñez", firstName: "José Luis", dateOfBirth: "1985-03-12", documentNumber: "XK1234567" };
const CAPTURE = {
  documentType: "PASSPORT",
  documentNumber: P.documentNumber,
  issuingCountry: P.issuingCountry,
  expiryDate: P.expiryDate,
  photo: { size: 1, type: "image/jpeg" },
} as const;
const PROFILE = { firstName: P.firstName, lastName: P.lastName, dateOfBirth: P.dateOfBirth, nationality: P.nationality };

describe("automatic KYC checks", () => {
  test("a zone found among other OCR lines parses with every check passing", () => {
    const [l1, l2] = passportMrz(P);
    const read = parseCandidates(mrzCandidates(`PASSPORT PASSEPORT\nSurname NUNEZ\n${l1}\n${l2}\n`));
    assert.ok(read?.read && read.valid);
    const { checks, extracted } = checkDocument(read, CAPTURE, PROFILE, NOW);
    assert.deepEqual(
      checks.filter((c) => !c.passed),
      [],
    );
    assert.equal(extracted?.lastName, "NUNEZ");
    assert.deepEqual(verdictOf(checks), { status: "APPROVED", reasons: [] });
  });

  test("a number read with a lookalike (4 as A) is corrected only where both check digits then agree", () => {
    const [l1, l2] = passportMrz(P);
    const misread = l2.slice(0, 5) + "A" + l2.slice(6); // XK123A567
    const read = parseCandidates(mrzCandidates(`${l1}\n${misread}`));
    assert.ok(read?.read);
    assert.equal(read.valid, true);
    assert.equal(read.fields.documentNumber, P.documentNumber);
  });

  test("the typed number agrees with a lookalike read only with the printed check digit", () => {
    const digit = mrzCheckDigit("XK1234567");
    assert.equal(numbersAgree("XK123A567", "XK1234567", digit), true);
    assert.equal(numbersAgree("XK123A567", "XK1234567", String((Number(digit) + 1) % 10)), false);
    assert.equal(numbersAgree("XK123M567", "XK1234567", digit), false, "M is no lookalike of 4");
  });

  test("names: the matching form, digits read as letters, a prefix only where the zone cut the name", () => {
    assert.equal(namesAgree(PROFILE, { lastName: "NUNEZ", firstName: "JOSE LUIS" }, false), true);
    assert.equal(namesAgree(PROFILE, { lastName: "NUNEZ", firstName: "J0SE LU1S" }, false), true);
    assert.equal(namesAgree(PROFILE, { lastName: "NUNEZ", firstName: "JOSE LU" }, false), false);
    assert.equal(namesAgree(PROFILE, { lastName: "NUNEZ", firstName: "JOSE LU" }, true), true);
    assert.equal(namesAgree(PROFILE, { lastName: "NUNES", firstName: "JOSE LUIS" }, true), false);
  });

  test("a different date of birth, an expired passport, a wrong check digit: each a reason for a person", () => {
    const dob = checkDocument(parseCandidates([passportMrz({ ...P, dateOfBirth: "1961-02-03" })])!, CAPTURE, PROFILE, NOW);
    assert.deepEqual(verdictOf(dob.checks).reasons, ["dateOfBirth: document 1961-02-03, profile 1985-03-12"]);
    const old = { ...P, expiryDate: "2024-01-31" };
    const expired = checkDocument(parseCandidates([passportMrz(old)])!, { ...CAPTURE, expiryDate: old.expiryDate }, PROFILE, NOW);
    assert.deepEqual(verdictOf(expired.checks).reasons, ["expiry: expired on 2024-01-31"]);
    const broken = checkDocument(parseCandidates([passportMrz(P, { breakDigit: true })])!, CAPTURE, PROFILE, NOW);
    assert.equal(verdictOf(broken.checks).status, "REVIEW");
    assert.ok(broken.checks.some((c) => c.check === "checkDigits" && !c.passed));
  });

  test("dates of the zone: birth in the past century when ahead of today, expiry in this one", () => {
    assert.equal(mrzDate("850312", "birth", NOW), "1985-03-12");
    assert.equal(mrzDate("010203", "birth", NOW), "2001-02-03");
    assert.equal(mrzDate("310531", "expiry", NOW), "2031-05-31");
    assert.equal(mrzDate("310231", "expiry", NOW), null);
  });
});
