/**
 * Submit-time validation of a destination identifier: format level only (spec 4.1 rule 9,
 * decisions 7). Length, character set and structure are checked here; checksums and phone-number
 * validity belong to the asynchronous fast-check (substantive-check.ts), so a well-formed but
 * wrong identifier is accepted at submit and rejected later as a state change.
 */
import { DomainError, validationError } from "@/lib/platform/errors";
import { canonicalMethodType, identifierKindOf, normalizeIdentifier, type BankAccountFormat, type PayoutMethodType } from "./method-types";

export const DESTINATION_IDENTIFIER_FIELD = "payoutMethod.destinationIdentifier";

/** Longest raw input looked at; the longest valid form (IBAN, 34) plus generous grouping. */
const MAX_RAW_LENGTH = 128;

/** Any IBAN: country, two check digits, 11-30 alphanumerics (15-34 in total, ISO 13616). */
export const IBAN_SHAPE = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/;
export const E164_SHAPE = /^\+[1-9]\d{6,14}$/;
export const WALLET_SHAPE = /^[A-Za-z0-9]{8,64}$/;

const NATIONAL_SHAPES: Record<BankAccountFormat, { pattern: RegExp; describe: string }> = {
  CLABE: { pattern: /^\d{18}$/, describe: "an 18-digit CLABE" },
  DIGITS_10_16: { pattern: /^\d{10,16}$/, describe: "a 10 to 16 digit account number" },
  NUBAN: { pattern: /^\d{10}$/, describe: "a 10-digit NUBAN" },
  // Senegal's national structure is its IBAN: SN, check digits, 24 alphanumerics (28 in total).
  IBAN_SN: { pattern: /^SN\d{2}[A-Z0-9]{24}$/, describe: "a 28-character SN IBAN" },
  DIGITS_6_20: { pattern: /^\d{6,20}$/, describe: "a 6 to 20 digit account number" },
};

/**
 * Why an already-normalised identifier is malformed for the method, or null when the shape is
 * fine. Non-throwing so the fast-check can re-run it on stored identifiers.
 */
export function formatProblem(methodType: PayoutMethodType, identifier: string, bankAccountFormat: BankAccountFormat | null): string | null {
  switch (identifierKindOf(methodType)) {
    case "bankAccount": {
      const national = bankAccountFormat ? NATIONAL_SHAPES[bankAccountFormat] : undefined;
      if (national?.pattern.test(identifier)) return null;
      // Any IBAN shape is accepted on every corridor (decisions 7); the fast-check then insists on
      // the destination country and its length. The exception is the corridor's own IBAN: the
      // corridor table fixes its length (SN: 28), so an "SN..." of another length is malformed.
      const ownIbanCountry = bankAccountFormat === "IBAN_SN" ? "SN" : null;
      if (IBAN_SHAPE.test(identifier) && identifier.slice(0, 2) !== ownIbanCountry) return null;
      return national ? `The destination identifier must be ${national.describe} or an IBAN.` : "The destination identifier must be an IBAN.";
    }
    case "phone":
      return E164_SHAPE.test(identifier) ? null : "The destination identifier must be a phone number in E.164 format (+ and 7 to 15 digits).";
    case "wallet":
      return WALLET_SHAPE.test(identifier) ? null : "The destination identifier must be 8 to 64 letters and digits.";
  }
}

export interface FormatCheckInput {
  /** PayoutMethodType as received (BANK_ACCOUNT accepted as alias of BANK_TRANSFER). */
  methodType: string;
  destinationIdentifier: string;
  /** The corridor's national bank-account structure; null when the corridor only takes IBANs. */
  bankAccountFormat: BankAccountFormat | null;
}

export interface FormatCheckResult {
  methodType: PayoutMethodType;
  /** Normalised identifier: the form to encrypt, store, check later and mask. */
  identifier: string;
}

function formatInvalid(message: string): DomainError {
  return validationError([{ field: DESTINATION_IDENTIFIER_FIELD, code: "validation.fieldFormatInvalid", message }], "validation.fieldFormatInvalid", message);
}

/**
 * Validates the identifier's format for its method and returns the normalised form, or throws
 * DomainError validation.fieldFormatInvalid (400) with one issue on
 * payoutMethod.destinationIdentifier. Messages never echo the identifier.
 */
export function checkIdentifierFormat(input: FormatCheckInput): FormatCheckResult {
  const methodType = canonicalMethodType(input.methodType);
  if (!methodType) {
    throw validationError([{ field: "payoutMethod.methodType", code: "validation.fieldInvalid", message: "Unknown payout method type." }]);
  }
  if (typeof input.destinationIdentifier !== "string" || input.destinationIdentifier.length > MAX_RAW_LENGTH) {
    throw formatInvalid("The destination identifier is too long or not a string.");
  }
  const identifier = normalizeIdentifier(methodType, input.destinationIdentifier);
  const problem = formatProblem(methodType, identifier, input.bankAccountFormat);
  if (problem) throw formatInvalid(problem);
  return { methodType, identifier };
}
