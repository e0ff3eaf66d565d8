/**
 * Reading a money amount from a request: a strict wire decimal that is also payable in its
 * currency. The wire carries six decimals (spec 2.1) but a customer cannot be charged
 * 10.123456 USD, so digits below the currency's minor unit must be zeros ("10.120000" is fine).
 */
import { validationError } from "@/lib/platform/errors";
import { isCurrencyCode, minorUnitExponent } from "./currency";
import { parseWireDecimal, type Decimal } from "./decimal";

export interface ParseAmountOptions {
  /** Dotted request path named in the validation issue. */
  field?: string;
  /** Zero is refused by default: nothing is sent for nothing (fees pass allowZero). */
  allowZero?: boolean;
}

export function parseMoneyAmount(value: unknown, currency: string, options: ParseAmountOptions = {}): Decimal {
  const field = options.field ?? "amount";
  if (!isCurrencyCode(currency)) {
    throw validationError([{ field, code: "validation.fieldInvalid", message: `Unknown currency ${currency}.` }]);
  }
  const amount = parseWireDecimal(value, field);
  const places = minorUnitExponent(currency);
  if (amount.decimalPlaces() > places) {
    throw validationError([
      {
        field,
        code: "validation.fieldFormatInvalid",
        message: `${currency} amounts have at most ${places} significant decimal places.`,
      },
    ]);
  }
  if (amount.isZero() && !options.allowZero) {
    throw validationError([{ field, code: "validation.fieldInvalid", message: "The amount must be greater than zero." }]);
  }
  return amount;
}
