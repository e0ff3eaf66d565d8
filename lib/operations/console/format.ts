import { formatMoney, formatShortDateTime } from "@/lib/platform/i18n/format";
import { minorUnitExponent } from "@/lib/platform/money/currency";
import { Decimal } from "@/lib/platform/money/decimal";

/**
 * How the console writes money, times and customers for operators: one place, on the
 * people-facing formatting module (lib/platform/i18n/format.ts), in British English with a 24-hour UTC
 * clock so operators in any country read the same instant the same way.
 */
const CONSOLE_LOCALE = "en-GB";

/** "USD 1,250.00". */
export const money = (amount: string, currency: string): string => formatMoney(amount, currency, CONSOLE_LOCALE);

/** "1,250.00": a column of one currency (named beside it), grouped, with the currency's minor digits. */
export function amount(value: string, currency: string): string {
  const digits = minorUnitExponent(currency);
  const f = new Intl.NumberFormat(CONSOLE_LOCALE, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  // An exact decimal string, as lib/platform/i18n/format.ts passes it (Intl formats strings exactly).
  return f.format(new Decimal(value).toFixed(digits) as unknown as number);
}

/** "22 Nov 2026, 20:42:44 UTC"; empty for a missing time. */
export const when = (at: Date | null | undefined): string => (at ? formatShortDateTime(at, CONSOLE_LOCALE) : "");

/** The customer's name from the submitted profile, or null before a profile exists. */
export function customerName(profile: Record<string, unknown> | null | undefined): string | null {
  const part = (v: unknown) => (typeof v === "string" ? v.trim() : "");
  const name = `${part(profile?.firstName)} ${part(profile?.lastName)}`.trim();
  return name || null;
}
