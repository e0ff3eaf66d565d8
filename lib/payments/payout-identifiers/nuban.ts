/**
 * Nigerian NUBAN (CBN standard): 9-digit serial + 1 check digit. The check digit covers the
 * institution code as well as the serial, so it can only be verified when the bank code is known.
 * Transfers carry the account number alone, so the fast-check verifies the check digit only when
 * a bank code is supplied and otherwise checks the structure (10 digits) only.
 */

const WEIGHTS = [3, 7, 3] as const;

/**
 * Check digit per the revised CBN algorithm: 6-digit institution code (a legacy 3-digit bank
 * code is left-padded with "000", which gives the same result as the original 3-digit
 * algorithm) followed by the 9-digit serial, weights 3,7,3 repeating, check = 10 - sum mod 10
 * (10 becomes 0).
 */
export function nubanCheckDigit(bankCode: string, serial9: string): number {
  if (!/^(\d{3}|\d{6})$/.test(bankCode)) throw new TypeError("NUBAN bank code must be 3 or 6 digits");
  if (!/^\d{9}$/.test(serial9)) throw new TypeError("NUBAN serial must be 9 digits");
  const digits = bankCode.padStart(6, "0") + serial9;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[i]) * WEIGHTS[i % 3]!;
  return (10 - (sum % 10)) % 10;
}

export function isValidNuban(account: string, bankCode: string): boolean {
  if (!/^\d{10}$/.test(account) || !/^(\d{3}|\d{6})$/.test(bankCode)) return false;
  return nubanCheckDigit(bankCode, account.slice(0, 9)) === Number(account[9]);
}
