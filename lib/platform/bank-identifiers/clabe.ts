/**
 * Mexican CLABE (Clave Bancaria Estandarizada, Banxico): 18 digits = 3 bank + 3 plaza +
 * 11 account + 1 check digit. The check digit is computed once here; everything else calls it.
 */

const WEIGHTS = [3, 7, 1] as const;

/** Check digit for the first 17 digits: weights 3,7,1 repeating, each product taken mod 10. */
export function clabeCheckDigit(first17: string): number {
  if (!/^\d{17}$/.test(first17)) throw new TypeError("clabeCheckDigit needs exactly 17 digits");
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (Number(first17[i]) * WEIGHTS[i % 3]!) % 10;
  return (10 - (sum % 10)) % 10;
}

export function isValidClabe(clabe: string): boolean {
  return /^\d{18}$/.test(clabe) && clabeCheckDigit(clabe.slice(0, 17)) === Number(clabe[17]);
}
