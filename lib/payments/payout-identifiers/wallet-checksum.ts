/**
 * Wallet identifier checksum. The platform defines wallet identifiers as a body of 6-62
 * characters [A-Za-z0-9] followed by two check characters computed with ISO/IEC 7064
 * MOD 1271-36 (the standard's two-character alphanumeric pure system) over the body, letters
 * compared case-insensitively. It catches all single substitutions and adjacent transpositions,
 * which is what a checksum on a typed identifier is for.
 */

const MODULUS = 1271;
const RADIX = 36;

function value(ch: string): number {
  const v = parseInt(ch, RADIX);
  if (Number.isNaN(v)) throw new TypeError("wallet identifiers are [A-Za-z0-9] only");
  return v;
}

/** Two upper-case base36 check characters for the body. */
export function walletCheckCharacters(body: string): string {
  let p = 0;
  for (const ch of body) p = (p * RADIX + value(ch)) % MODULUS;
  // Room for the two check characters, then choose them so the whole string is 1 mod 1271.
  p = (p * RADIX * RADIX) % MODULUS;
  const check = (MODULUS + 1 - p) % MODULUS;
  return (Math.floor(check / RADIX).toString(RADIX) + (check % RADIX).toString(RADIX)).toUpperCase();
}

/** Builds a wallet identifier from its body (used by sandbox data and tests). */
export function withWalletCheck(body: string): string {
  return body + walletCheckCharacters(body);
}

export function isValidWalletIdentifier(identifier: string): boolean {
  if (!/^[A-Za-z0-9]{8,64}$/.test(identifier)) return false;
  // Compare the characters rather than testing "whole string is 1 mod 1271": check values above
  // 1270 ("ZB".."ZZ") would otherwise alias small ones and give a second valid spelling.
  return walletCheckCharacters(identifier.slice(0, -2)) === identifier.slice(-2).toUpperCase();
}
