/**
 * Money, rates and times for people, in the reader's language, with the platform's Intl (ICU):
 * no formatting package is needed, and Intl knows each language's separators, word order and
 * month names ("102,99 USD", "22 novembre 2026 à 20:42 UTC"). The webviews, the disclosure text
 * and the console all format here; the API keeps its decimal strings and ISO times.
 *
 * Amounts never pass through a JS number: the decimal string is rounded half-even to the
 * currency's ISO 4217 minor unit with decimal.js (lib/platform/money), then handed to Intl as a string,
 * which Intl formats exactly (ECMA-402 NumberFormat v3) with exactly that many decimals.
 */
import { Decimal } from "@/lib/platform/money/decimal";
import { minorUnitExponent } from "@/lib/platform/money/currency";
import { roundToMinorUnit } from "@/lib/platform/money/format";

/** A BCP 47 tag: the webviews pass "en" | "fr" | "es", the console "en-GB". */
export type Locale = string;

/** Times are shown in UTC unless the customer's time zone is known. */
export const DEFAULT_TIME_ZONE = "UTC";

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function cached<F extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => F): F {
  let f = cache.get(key);
  if (!f) cache.set(key, (f = make()));
  return f as F;
}

// Intl accepts exact decimal strings at run time (NumberFormat v3); TypeScript's lib types only numbers.
type IntlDecimal = number & { readonly decimal?: never };
const asIntlDecimal = (s: string) => s as unknown as IntlDecimal;

/** "102,99 USD" (fr), "USD 102.99" (en), "1.234,50 MXN" (es): the ISO code, never an ambiguous "$". */
export function formatMoney(amount: string, currency: string, locale: Locale): string {
  const digits = minorUnitExponent(currency);
  const exact = roundToMinorUnit(new Decimal(amount), currency).toFixed(digits);
  const f = cached(
    `money|${locale}|${currency}`,
    () =>
      new Intl.NumberFormat(locale, {
        style: "currency",
        currency,
        currencyDisplay: "code",
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      }),
  );
  return f.format(asIntlDecimal(exact));
}

/** An exchange rate with every decimal it was computed with, trailing zeros dropped ("17,1234"). */
export function formatDecimal(value: string, locale: Locale): string {
  const d = new Decimal(value);
  const places = Math.min(d.decimalPlaces(), 20);
  const f = cached(`decimal|${locale}|${places}`, () => new Intl.NumberFormat(locale, { minimumFractionDigits: 0, maximumFractionDigits: places }));
  return f.format(asIntlDecimal(d.toFixed(places)));
}

/**
 * A time for the customer in their zone (lib/identity/customers/time-zone.ts), with its offset from UTC:
 * "November 28, 2026 at 5:00 PM CST (UTC−06:00)", "28 novembre 2026 à 17:00 UTC−06:00" (French
 * names the zone by its offset already), "22 de noviembre de 2026, 20:42 UTC" when the zone is
 * UTC. Intl writes every part; only its "GMT" offsets are named "UTC" like the French ones.
 */
export function formatDateTime(at: Date | string, locale: Locale, timeZone: string = DEFAULT_TIME_ZONE): string {
  const instant = typeof at === "string" ? new Date(at) : at;
  const f = cached(
    `datetime|${locale}|${timeZone}`,
    () =>
      new Intl.DateTimeFormat(locale, { day: "numeric", month: "long", year: "numeric", hour: "numeric", minute: "2-digit", timeZone, timeZoneName: "short" }),
  );
  if (isUtc(timeZone)) return f.format(instant);
  const offset = utcOffset(instant, timeZone);
  return f
    .formatToParts(instant)
    .map((p) => (p.type !== "timeZoneName" ? p.value : OFFSET_NAME.test(p.value) ? offset : `${p.value} (${offset})`))
    .join("");
}

const isUtc = (timeZone: string) => ["UTC", "ETC/UTC", "ETC/GMT", "GMT", "ETC/UCT", "UCT", "ETC/ZULU", "ZULU"].includes(timeZone.toUpperCase());

/** A zone name that is only an offset ("GMT-6", "UTC−6", "GMT+5:30"): the full offset replaces it. */
const OFFSET_NAME = /^(GMT|UTC)([+\-−]|$)/;

/** "UTC−06:00", "UTC+05:30", "UTC+00:00": Intl's long offset, its sign the minus sign. */
function utcOffset(instant: Date, timeZone: string): string {
  const f = cached(`offset|${timeZone}`, () => new Intl.DateTimeFormat("en", { timeZone, timeZoneName: "longOffset" }));
  const name = f.formatToParts(instant).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const sign = name.slice(3) || "+00:00"; // "GMT" alone is the zero offset
  return `UTC${sign.replace("-", "−")}`;
}

/** A compact time for tables (the console): "22 Nov 2026, 20:42:44 UTC". */
export function formatShortDateTime(at: Date | string, locale: Locale, timeZone: string = DEFAULT_TIME_ZONE): string {
  const f = cached(
    `short|${locale}|${timeZone}`,
    () =>
      new Intl.DateTimeFormat(locale, {
        day: "numeric",
        month: "short",
        year: "numeric",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
        hourCycle: "h23",
        timeZone,
        timeZoneName: "short",
      }),
  );
  return f.format(typeof at === "string" ? new Date(at) : at);
}
