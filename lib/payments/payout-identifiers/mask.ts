/**
 * Masked destination identifiers for responses (spec 2.4 PayoutMethodMasked): last 4 characters
 * of bank accounts and phone numbers, last 6 of wallet identifiers. The hidden part is always the
 * same four asterisks, so the mask does not reveal the identifier's length either.
 */
import { canonicalMethodType, identifierKindOf, normalizeIdentifier } from "./method-types";

export const MASK_PREFIX = "****";

const VISIBLE = { bankAccount: 4, phone: 4, wallet: 6 } as const;

/**
 * "****" + the last characters of the normalised identifier. An identifier not longer than the
 * visible part (never valid, but possible in old or bad data) shows nothing rather than all of it.
 */
export function maskIdentifier(methodType: string, identifier: string): string {
  const canonical = canonicalMethodType(methodType);
  // An unknown method reveals the fewest characters of any method.
  const visible = canonical ? VISIBLE[identifierKindOf(canonical)] : 4;
  const normalized = canonical ? normalizeIdentifier(canonical, identifier) : identifier.trim();
  if (normalized.length <= visible) return MASK_PREFIX;
  return MASK_PREFIX + normalized.slice(-visible);
}
