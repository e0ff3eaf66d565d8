import { formatMoney, formatShortDateTime } from "@/lib/i18n/format";

/**
 * How the console writes money, times and customers for operators: one place, on the
 * people-facing formatting module (lib/i18n/format.ts), in British English with a 24-hour UTC
 * clock so operators in any country read the same instant the same way.
 */
const CONSOLE_LOCALE = "en-GB";

/** "USD 1,250.00". */
export const money = (amount: string, currency: string): string => formatMoney(amount, currency, CONSOLE_LOCALE);

/** "22 Nov 2026, 20:42:44 UTC"; empty for a missing time. */
export const when = (at: Date | null | undefined): string => (at ? formatShortDateTime(at, CONSOLE_LOCALE) : "");

/** The customer's name from the submitted profile, or null before a profile exists. */
export function customerName(profile: Record<string, unknown> | null | undefined): string | null {
  const part = (v: unknown) => (typeof v === "string" ? v.trim() : "");
  const name = `${part(profile?.firstName)} ${part(profile?.lastName)}`.trim();
  return name || null;
}
