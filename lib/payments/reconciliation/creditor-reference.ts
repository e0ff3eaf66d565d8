import { randomInt } from "node:crypto";

/**
 * ISO 11649 structured creditor references: "RF", two check digits, then 1 to 21 alphanumerics.
 * The check digits are computed like an IBAN's (ISO 7064 mod 97-10): move "RF00" behind the
 * reference, letters to numbers (A=10 … Z=35), 98 minus the remainder mod 97. A valid reference
 * leaves remainder 1. Published example: RF18539007547034.
 */
const SHAPE = /^RF\d{2}[0-9A-Z]{1,21}$/;

/** The remainder mod 97 of the number the letters-to-digits expansion of `text` spells. */
function mod97(text: string): number {
  let remainder = 0;
  for (const ch of text) {
    const digits = /[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return remainder;
}

/** The reference for a body of 1 to 21 alphanumerics ("539007547034" -> "RF18539007547034"). */
export function creditorReference(body: string): string {
  const upper = body.toUpperCase();
  if (!/^[0-9A-Z]{1,21}$/.test(upper)) throw new RangeError("An RF reference body is 1 to 21 letters or digits");
  const check = 98 - mod97(`${upper}RF00`);
  return `RF${String(check).padStart(2, "0")}${upper}`;
}

/** Spaces are allowed in print ("RF18 5390 0754 7034"); the electronic form has none. */
export function electronicReference(text: string): string {
  return text.replace(/\s+/g, "").toUpperCase();
}

export function isCreditorReference(text: string): boolean {
  const ref = electronicReference(text);
  return SHAPE.test(ref) && mod97(`${ref.slice(4)}${ref.slice(0, 4)}`) === 1;
}

/** A new random reference: 18 digits after the check digits (10^18 values: collisions are checked by a unique index). */
export function newCreditorReference(): string {
  let body = "";
  for (let i = 0; i < 18; i++) body += String(randomInt(10));
  return creditorReference(body);
}

/**
 * The first valid RF reference inside free text (unstructured remittance information, where
 * payers paste it in print form or glued to other words). Candidates are tried longest first, those
 * ending where the text has a space, a hyphen or its end before the others: in "RF… thanks" a
 * longer candidate running into "THA" passes the check digits by chance about once in 97.
 */
export function findCreditorReference(text: string): string | null {
  let compact = "";
  const ends = new Set<number>();
  for (const ch of text.toUpperCase()) {
    if (/[\s-]/.test(ch)) ends.add(compact.length);
    else compact += ch;
  }
  ends.add(compact.length);
  for (const match of compact.matchAll(/RF\d{2}[0-9A-Z]{1,21}/g)) {
    const candidates: string[] = [];
    for (let end = match[0].length; end >= 5; end--) candidates.push(match[0].slice(0, end));
    const atBoundary = (c: string) => ends.has(match.index + c.length) || !/[0-9A-Z]/.test(compact[match.index + c.length] ?? "");
    const found = candidates.filter(atBoundary).find(isCreditorReference) ?? candidates.find(isCreditorReference);
    if (found) return found;
  }
  return null;
}

/** Printed in groups of four, as on invoices ("RF18 5390 0754 7034"). */
export function printedReference(ref: string): string {
  return ref.replace(/(.{4})(?=.)/g, "$1 ");
}
