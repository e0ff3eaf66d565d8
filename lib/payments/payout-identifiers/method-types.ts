/**
 * Payout method types and corridor bank-account formats shared by the format check (submit time),
 * the substantive check (fast-check) and masking. Kept free of framework and database imports so
 * every layer can use it.
 */

/** Canonical PayoutMethodType values (spec 2.9); BANK_ACCOUNT is an accepted input alias. */
export type PayoutMethodType = "BANK_TRANSFER" | "MOBILE_MONEY" | "CASH_PICKUP" | "WALLET_TRANSFER";

/**
 * National bank-account structure a corridor expects (decisions 6). The corridor configuration
 * names one of these; the identifier modules never look corridors up themselves.
 */
export type BankAccountFormat = "CLABE" | "DIGITS_10_16" | "NUBAN" | "IBAN_SN" | "DIGITS_6_20";

export const BANK_ACCOUNT_FORMATS: readonly BankAccountFormat[] = ["CLABE", "DIGITS_10_16", "NUBAN", "IBAN_SN", "DIGITS_6_20"];

const ALIASES: Record<string, PayoutMethodType> = {
  BANK_TRANSFER: "BANK_TRANSFER",
  BANK_ACCOUNT: "BANK_TRANSFER",
  MOBILE_MONEY: "MOBILE_MONEY",
  CASH_PICKUP: "CASH_PICKUP",
  WALLET_TRANSFER: "WALLET_TRANSFER",
};

/** The canonical method type for an input value (alias-aware), or null when unknown. */
export function canonicalMethodType(methodType: string): PayoutMethodType | null {
  return Object.hasOwn(ALIASES, methodType) ? ALIASES[methodType]! : null;
}

/** Which kind of identifier a method carries; decides normalisation, checks and masking. */
export type IdentifierKind = "bankAccount" | "phone" | "wallet";

export function identifierKindOf(methodType: PayoutMethodType): IdentifierKind {
  switch (methodType) {
    case "BANK_TRANSFER":
      return "bankAccount";
    case "MOBILE_MONEY":
    case "CASH_PICKUP":
      return "phone";
    case "WALLET_TRANSFER":
      return "wallet";
  }
}

/**
 * The stored form of an identifier. Bank accounts and IBANs are commonly typed in groups
 * ("SN08 SN01 ...", "002-010-...") and IBAN letters in lower case, so separators go and letters
 * are upper-cased; phone numbers lose grouping whitespace only (any other punctuation stays and
 * then fails the E.164 shape, so the customer sees the problem instead of a silent rewrite);
 * wallet identifiers are only trimmed because their case may be meaningful to the wallet provider.
 */
export function normalizeIdentifier(methodType: PayoutMethodType, identifier: string): string {
  switch (identifierKindOf(methodType)) {
    case "bankAccount":
      return identifier.replace(/[\s-]+/g, "").toUpperCase();
    case "phone":
      return identifier.replace(/\s+/g, "");
    case "wallet":
      return identifier.trim();
  }
}
