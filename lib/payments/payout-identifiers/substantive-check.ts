/**
 * Substantive checks run by the asynchronous fast-check (decisions 7), never at submit: IBAN
 * mod-97 and country length, CLABE check digit, NUBAN check digit when the bank code is known,
 * phone validity for the destination country and the wallet checksum. A failure is a reason code
 * the transfer is rejected with, not an exception: the identifier was well-formed at submit and
 * this is a business outcome.
 */
import { extractIBAN, isValidIBAN } from "ibantools";
import countries from "@/lib/platform/i18n/iso-countries";
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { isValidClabe } from "@/lib/platform/bank-identifiers/clabe";
import { E164_SHAPE, IBAN_SHAPE, formatProblem } from "./format-check";
import { canonicalMethodType, identifierKindOf, normalizeIdentifier, type BankAccountFormat } from "./method-types";
import { isValidNuban } from "./nuban";
import { isValidWalletIdentifier } from "./wallet-checksum";

export type SubstantiveReasonCode =
  "TRF_CHECK_IBAN_INVALID" | "TRF_CHECK_CLABE_INVALID" | "TRF_CHECK_PHONE_INVALID" | "TRF_CHECK_WALLET_INVALID" | "TRF_CHECK_ACCOUNT_INVALID";

export type SubstantiveCheckResult = { ok: true } | { ok: false; reasonCode: SubstantiveReasonCode };

export interface SubstantiveCheckInput {
  /** PayoutMethodType (BANK_ACCOUNT alias accepted). */
  methodType: string;
  /** The stored identifier (normalised again here, so raw input also works). */
  identifier: string;
  /** The corridor's destination country, ISO 3166 alpha-2 or alpha-3 ("MX" or "MEX"). */
  destinationCountry: string;
  /** The corridor's national bank-account structure; null when the corridor only takes IBANs. */
  bankAccountFormat: BankAccountFormat | null;
  /** NUBAN institution code (3 or 6 digits) when known; without it a NUBAN is checked for length only. */
  bankCode?: string | null;
}

const OK: SubstantiveCheckResult = { ok: true };
const fail = (reasonCode: SubstantiveReasonCode): SubstantiveCheckResult => ({ ok: false, reasonCode });

/** ISO alpha-2 of a destination given as alpha-2 or alpha-3. Bad configuration is a bug, so it throws. */
export function toAlpha2(country: string): string {
  const upper = country.toUpperCase();
  const alpha2 = upper.length === 3 ? countries.alpha3ToAlpha2(upper) : upper;
  if (!alpha2 || alpha2.length !== 2 || !countries.isValid(alpha2)) {
    throw new TypeError(`Unknown destination country: ${country}`);
  }
  return alpha2;
}

function checkBankAccount(
  identifier: string,
  destination: string,
  format: BankAccountFormat | null,
  bankCode: string | null | undefined,
): SubstantiveCheckResult {
  if (IBAN_SHAPE.test(identifier)) {
    // ibantools checks the country's registered length and BBAN structure as well as mod-97.
    if (!isValidIBAN(identifier)) return fail("TRF_CHECK_IBAN_INVALID");
    return extractIBAN(identifier).countryCode === destination ? OK : fail("TRF_CHECK_IBAN_INVALID");
  }
  switch (format) {
    case "CLABE":
      return isValidClabe(identifier) ? OK : fail("TRF_CHECK_CLABE_INVALID");
    case "NUBAN":
      if (!/^\d{10}$/.test(identifier)) return fail("TRF_CHECK_ACCOUNT_INVALID");
      if (bankCode == null) return OK; // no bank code, no verifiable check digit (see nuban.ts)
      return isValidNuban(identifier, bankCode) ? OK : fail("TRF_CHECK_ACCOUNT_INVALID");
    case "DIGITS_10_16":
    case "DIGITS_6_20":
      // These corridors have no published national checksum; structure is all we can verify.
      return formatProblem("BANK_TRANSFER", identifier, format) === null ? OK : fail("TRF_CHECK_ACCOUNT_INVALID");
    case "IBAN_SN":
    case null:
      return fail("TRF_CHECK_IBAN_INVALID"); // only IBANs are accepted here, and this is not one
  }
}

/**
 * Valid for the destination country specifically: the number must match the full numbering plan
 * ("max" metadata) and belong to the destination. isValidPhoneNumber(number, country) alone is
 * not enough: the country argument is ignored for numbers in international form, and a calling
 * code can be shared (+1 is the US, Canada and the Caribbean), so the country libphonenumber
 * resolves from the number itself is compared.
 */
export function isValidPhoneForCountry(e164: string, alpha2: string): boolean {
  if (!E164_SHAPE.test(e164)) return false;
  const phone = parsePhoneNumberFromString(e164);
  return phone !== undefined && phone.isValid() && phone.country === alpha2;
}

export function checkIdentifierSubstance(input: SubstantiveCheckInput): SubstantiveCheckResult {
  const methodType = canonicalMethodType(input.methodType);
  if (!methodType) throw new TypeError(`Unknown payout method type: ${input.methodType}`);
  const destination = toAlpha2(input.destinationCountry);
  const identifier = normalizeIdentifier(methodType, input.identifier);
  switch (identifierKindOf(methodType)) {
    case "bankAccount":
      return checkBankAccount(identifier, destination, input.bankAccountFormat, input.bankCode);
    case "phone":
      return isValidPhoneForCountry(identifier, destination) ? OK : fail("TRF_CHECK_PHONE_INVALID");
    case "wallet":
      return isValidWalletIdentifier(identifier) ? OK : fail("TRF_CHECK_WALLET_INVALID");
  }
}
