/** The people-facing formatting module (lib/platform/i18n/format.ts): money, rates and times per language. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { formatDateTime, formatDecimal, formatMoney, formatShortDateTime } from "@/lib/platform/i18n/format";

// ICU separates groups and units with (narrow) no-break spaces; compare with plain spaces.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

test("money: the issue's French example, and the same amount in en and es", () => {
  assert.equal(plain(formatMoney("102.990000", "USD", "fr")), "102,99 USD");
  assert.equal(plain(formatMoney("102.990000", "USD", "en")), "USD 102.99");
  assert.equal(plain(formatMoney("102.990000", "USD", "es")), "102,99 USD");
});

test("money: grouping per language", () => {
  assert.equal(plain(formatMoney("1875432.500000", "MXN", "fr")), "1 875 432,50 MXN");
  assert.equal(plain(formatMoney("1875432.500000", "MXN", "es")), "1.875.432,50 MXN");
  assert.equal(plain(formatMoney("1875432.500000", "MXN", "en")), "MXN 1,875,432.50");
});

test("money: to the currency's minor unit (JPY 0, KWD 3), rounded half-even by decimal.js", () => {
  assert.equal(plain(formatMoney("1234.500000", "JPY", "en")), "JPY 1,234");
  assert.equal(plain(formatMoney("1235.500000", "JPY", "en")), "JPY 1,236");
  assert.equal(plain(formatMoney("12.345000", "KWD", "en")), "KWD 12.345");
  assert.equal(plain(formatMoney("0.125000", "USD", "en")), "USD 0.12");
  assert.equal(plain(formatMoney("0.135000", "USD", "en")), "USD 0.14");
  assert.equal(plain(formatMoney("5", "USD", "fr")), "5,00 USD");
});

test("money: exact beyond a float's precision (no Number on the way)", () => {
  assert.equal(plain(formatMoney("90071992547409.930000", "USD", "en")), "USD 90,071,992,547,409.93");
});

test("money: a code that is not a currency throws", () => {
  assert.throws(() => formatMoney("1.00", "XXX", "en"), RangeError);
});

test("rates keep their decimals, drop trailing zeros", () => {
  assert.equal(formatDecimal("17.123400", "fr"), "17,1234");
  assert.equal(formatDecimal("17.123400", "en"), "17.1234");
  assert.equal(formatDecimal("0.0000421234", "es"), "0,0000421234");
  assert.equal(plain(formatDecimal("1234.5", "fr")), "1 234,5");
});

test("date and time: the issue's French example, en and es, in UTC by default", () => {
  const at = new Date("2026-11-22T20:42:44.000Z");
  assert.equal(plain(formatDateTime(at, "fr")), "22 novembre 2026 à 20:42 UTC");
  assert.equal(plain(formatDateTime(at, "en")), "November 22, 2026 at 8:42 PM UTC");
  assert.match(plain(formatDateTime(at, "es")), /^22 de noviembre de 2026,? (a las )?20:42 UTC$/);
  assert.equal(plain(formatDateTime("2026-11-22T20:42:44.000Z", "fr")), "22 novembre 2026 à 20:42 UTC");
});

test("date and time: in the customer's time zone when known, with its offset from UTC", () => {
  const at = new Date("2026-11-28T23:00:00.000Z");
  // The Texas customer: 11:00 PM UTC is 5:00 PM Central.
  assert.equal(plain(formatDateTime(at, "en", "America/Chicago")), "November 28, 2026 at 5:00 PM CST (UTC−06:00)");
  // French and Spanish name this zone by its offset: the full offset replaces it, once.
  assert.equal(plain(formatDateTime(at, "fr", "America/Chicago")), "28 novembre 2026 à 17:00 UTC−06:00");
  assert.match(plain(formatDateTime(at, "es", "America/Mexico_City")), /^28 de noviembre de 2026,? (a las )?17:00 UTC−06:00$/);
  assert.match(plain(formatDateTime(at, "es", "Europe/Madrid")), /^29 de noviembre de 2026,? (a las )?0:00 CET \(UTC\+01:00\)$/);
  assert.equal(plain(formatDateTime(at, "en", "Asia/Kolkata")), "November 29, 2026 at 4:30 AM UTC+05:30");
  assert.equal(plain(formatDateTime(at, "fr", "Europe/Paris")), "29 novembre 2026 à 00:00 UTC+01:00");
  // A zone at offset zero still says so; UTC itself is written as before.
  assert.equal(plain(formatDateTime(at, "en", "Europe/London")), "November 28, 2026 at 11:00 PM UTC+00:00");
  assert.equal(plain(formatDateTime(at, "en", "UTC")), "November 28, 2026 at 11:00 PM UTC");
});

test("date and time: across a DST change the offset follows the instant (Chicago, 8 March 2026)", () => {
  assert.equal(plain(formatDateTime("2026-03-08T07:59:00.000Z", "en", "America/Chicago")), "March 8, 2026 at 1:59 AM CST (UTC−06:00)");
  assert.equal(plain(formatDateTime("2026-03-08T08:00:00.000Z", "en", "America/Chicago")), "March 8, 2026 at 3:00 AM CDT (UTC−05:00)");
  // And back on 1 November 2026: 1:30 AM happens twice, told apart by the offset.
  assert.equal(plain(formatDateTime("2026-11-01T06:30:00.000Z", "en", "America/Chicago")), "November 1, 2026 at 1:30 AM CDT (UTC−05:00)");
  assert.equal(plain(formatDateTime("2026-11-01T07:30:00.000Z", "en", "America/Chicago")), "November 1, 2026 at 1:30 AM CST (UTC−06:00)");
});

test("console times: compact, 24-hour, with seconds and the zone", () => {
  assert.equal(plain(formatShortDateTime(new Date("2026-11-22T08:05:09.000Z"), "en-GB")), "22 Nov 2026, 08:05:09 UTC");
});
