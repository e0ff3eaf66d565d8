import rules from "@/data/kyc/verification.json";
import { matchingForm } from "../../identifiers/name-form";
import type { KycDocumentCapture } from "../capture";
import type { MrzFields, MrzRead } from "./mrz-read";

/**
 * The checks the machine makes on a read machine-readable zone, each recorded with its result:
 * check digits, expiry, document type for the issuing country, what the customer typed, and the
 * name, date of birth and nationality against the profile (names in the screening's matching form),
 * age. Any check that fails (or cannot be made) sends the session to a person with its reason.
 */

export type CheckName =
  | "mrzRead"
  | "checkDigits"
  | "documentType"
  | "issuingCountry"
  | "documentNumber"
  | "expiry"
  | "name"
  | "dateOfBirth"
  | "nationality"
  | "age"
  | "faceMatch"
  | "liveness";

export interface CheckResult {
  check: CheckName;
  passed: boolean;
  /** Why it failed (or what was compared), for the reviewer. */
  detail: string;
}

/** What the document says, in the profile's terms, for the reviewer's side-by-side card. */
export type ExtractedFields = {
  documentType: string | null;
  issuingCountry: string | null;
  documentNumber: string | null;
  lastName: string | null;
  firstName: string | null;
  dateOfBirth: string | null;
  nationality: string | null;
  expiryDate: string | null;
  sex: string | null;
};

export interface KycProfileFacts {
  firstName: string;
  middleNames?: string[];
  lastName: string;
  dateOfBirth: string;
  nationality: string;
}

const ID_CARD_COUNTRIES = new Set<string>(rules.idCardCountries);

/** YYMMDD → YYYY-MM-DD; birth dates are in the past (a year ahead of today is last century), expiry dates in this century. */
export function mrzDate(value: string | null, kind: "birth" | "expiry", now: Date): string | null {
  if (!value || !/^\d{6}$/.test(value)) return null;
  const yy = Number(value.slice(0, 2));
  const century = kind === "expiry" ? 2000 : yy > now.getUTCFullYear() % 100 ? 1900 : 2000;
  const iso = `${century + yy}-${value.slice(2, 4)}-${value.slice(4, 6)}`;
  const d = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso ? null : iso;
}

/** Germany writes "D" in the zone where every other state writes its alpha-3 code (ICAO 9303 part 3). */
const alpha3 = (code: string | null) => (code === "D" ? "DEU" : code);

export function extractedFields(fields: MrzFields, now: Date): ExtractedFields {
  const code = fields.documentCode ?? "";
  return {
    documentType: code.startsWith("P") ? "PASSPORT" : /^[IAC]/.test(code) ? "ID_CARD" : code || null,
    issuingCountry: alpha3(fields.issuingState),
    documentNumber: fields.documentNumber,
    lastName: fields.lastName,
    firstName: fields.firstName,
    dateOfBirth: mrzDate(fields.birthDate, "birth", now),
    nationality: alpha3(fields.nationality),
    expiryDate: mrzDate(fields.expirationDate, "expiry", now),
    sex: fields.sex,
  };
}

const words = (value: string) => matchingForm(value).split(" ").filter(Boolean);

/** A name in the zone holds no digits: one read there is the letter OCR-B draws alike. */
const DIGIT_AS_LETTER: Record<string, string> = { "0": "O", "1": "I", "2": "Z", "4": "A", "5": "S", "6": "G", "8": "B" };
const lettersOnly = (value: string | null) => (value ?? "").replace(/[0124568]/g, (d) => DIGIT_AS_LETTER[d]);

const LETTER_AS_DIGIT: Record<string, string> = Object.fromEntries(Object.entries(DIGIT_AS_LETTER).map(([d, l]) => [l, d]));
const LOOKALIKE_PAIRS = ["0O", "1I", "2Z", "4A", "5S", "6G", "8B"];
const alike = (a: string, b: string) => a === b || LOOKALIKE_PAIRS.some((p) => p.includes(a) && p.includes(b));
const mrzValue = (c: string) => (c === "<" ? 0 : /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 55);
/** ICAO 9303 check digit (weights 7, 3, 1). */
export const mrzCheckDigit = (field: string) => String([...field].reduce((sum, c, i) => sum + mrzValue(c) * [7, 3, 1][i % 3], 0) % 10);

/**
 * The number read agrees with the one typed: the same, or the same but for OCR-B lookalikes (4 and
 * A, 5 and S ...) where the typed number has the check digit printed in the zone. A passport
 * number mixes letters and digits, so the field type cannot settle a lookalike; the customer's own
 * entry, confirmed by the printed check digit, does.
 */
export function numbersAgree(read: string, typed: string, printedCheckDigit: string | null): boolean {
  const t = typed.replace(/[\s-]/g, "").toUpperCase();
  if (read === t) return true;
  if (read.length !== t.length || printedCheckDigit === null) return false;
  return [...read].every((c, i) => alike(c, t[i])) && mrzCheckDigit(t.padEnd(9, "<").slice(0, 9)) === printedCheckDigit;
}

/**
 * Surname and given names each the same words in the matching form. The zone holds 39 characters
 * of name on a passport (30 on a card): a name cut there (no filler left) may end in a prefix of
 * the profile's last word.
 */
export function namesAgree(profile: KycProfileFacts, found: { lastName: string | null; firstName: string | null }, truncated: boolean): boolean {
  const want = [...words(profile.lastName), "|", ...words([profile.firstName, ...(profile.middleNames ?? [])].join(" "))];
  const got = [...words(lettersOnly(found.lastName)), "|", ...words(lettersOnly(found.firstName))];
  if (got.length === 2) return false;
  if (want.join(" ") === got.join(" ")) return true;
  if (!truncated || got.length > want.length) return false;
  const last = got.length - 1;
  return got.every((w, i) => (i === last ? want[i].startsWith(w) : w === want[i]));
}

function ageOn(dateOfBirth: string, now: Date): number {
  const [y, m, d] = dateOfBirth.split("-").map(Number);
  let age = now.getUTCFullYear() - y;
  if (now.getUTCMonth() + 1 < m || (now.getUTCMonth() + 1 === m && now.getUTCDate() < d)) age -= 1;
  return age;
}

const squash = (v: string) => v.replace(/[\s-]/g, "").toUpperCase();

/** Every document check, in order; the first failing ones are the reasons a reviewer reads. */
export function checkDocument(
  read: MrzRead,
  capture: KycDocumentCapture,
  profile: KycProfileFacts,
  now: Date,
): { checks: CheckResult[]; extracted: ExtractedFields | null } {
  if (!read.read) return { checks: [{ check: "mrzRead", passed: false, detail: read.reason }], extracted: null };
  const x = extractedFields(read.fields, now);
  const checks: CheckResult[] = [{ check: "mrzRead", passed: true, detail: `${read.format} read` }];
  const add = (check: CheckName, passed: boolean, detail: string) => checks.push({ check, passed, detail });
  add("checkDigits", read.valid, read.valid ? "all check digits agree" : `check digit wrong or unreadable: ${read.invalidFields.join(", ")}`);

  const kindOk = x.documentType === capture.documentType;
  const country = x.issuingCountry ?? "";
  const countryIssues = x.documentType === "PASSPORT" ? rules.passportCountries === "any" : x.documentType === "ID_CARD" && ID_CARD_COUNTRIES.has(country);
  add(
    "documentType",
    kindOk && countryIssues,
    !kindOk
      ? `the document is ${x.documentType ?? "unknown"}, the customer chose ${capture.documentType}`
      : countryIssues
        ? `${x.documentType} of ${country}`
        : `${x.documentType} of ${country || "unknown"} is not checked by the machine`,
  );
  add("issuingCountry", country === capture.issuingCountry, `document ${country || "unreadable"}, entered ${capture.issuingCountry}`);
  const number = x.documentNumber ?? "";
  // TD3's number check digit sits right after its nine characters on the second line.
  const printed = read.format === "TD3" ? (read.lines[1]?.[9] ?? "") : "";
  const printedDigit = /\d/.test(printed) ? printed : (LETTER_AS_DIGIT[printed] ?? null);
  const numberOk = number !== "" && numbersAgree(number, capture.documentNumber, printedDigit);
  add(
    "documentNumber",
    numberOk,
    number === squash(capture.documentNumber)
      ? "as entered"
      : numberOk
        ? `read ${number}: the entered ${capture.documentNumber} but for lookalike characters, with the printed check digit`
        : `document ${number || "unreadable"}, entered ${capture.documentNumber}`,
  );

  const today = now.toISOString().slice(0, 10);
  const expiry = x.expiryDate;
  add(
    "expiry",
    expiry !== null && expiry >= today && expiry === capture.expiryDate,
    expiry === null
      ? "expiry date unreadable"
      : expiry < today
        ? `expired on ${expiry}`
        : expiry === capture.expiryDate
          ? `valid until ${expiry}`
          : `document ${expiry}, entered ${capture.expiryDate}`,
  );

  const nameLine = read.lines[read.format === "TD1" ? 2 : 0] ?? "";
  const truncated = !nameLine.endsWith("<");
  const named = namesAgree(profile, x, truncated);
  add("name", named, named ? "same name" : `document ${x.lastName ?? ""}, ${x.firstName ?? ""}; profile ${profile.lastName}, ${profile.firstName}`);
  add(
    "dateOfBirth",
    x.dateOfBirth !== null && x.dateOfBirth === profile.dateOfBirth,
    x.dateOfBirth === profile.dateOfBirth ? "same date of birth" : `document ${x.dateOfBirth ?? "unreadable"}, profile ${profile.dateOfBirth}`,
  );
  add("nationality", x.nationality === profile.nationality, `document ${x.nationality ?? "unreadable"}, profile ${profile.nationality}`);
  const age = x.dateOfBirth ? ageOn(x.dateOfBirth, now) : -1;
  add("age", age >= rules.minimumAge, age < 0 ? "age unknown" : `${age} years old`);
  return { checks, extracted: x };
}
