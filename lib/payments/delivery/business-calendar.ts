/**
 * Business days of a country: weekends and the public and bank holidays of the
 * date-holidays package, the maintained worldwide holiday table (rules, not a list we would have
 * to keep up to date each year), changed by the configuration version in force now where the
 * table is wrong for our banks (a closure it does not know, a holiday worked: `calendars`,
 * docs/decisions.md "Business-day calendars in a configuration version"). Local wall-clock time of
 * an IANA zone is read with Intl, so no time-zone library is needed.
 */
import Holidays from "date-holidays";
import { clock } from "@/lib/platform/clock";
import { tableInForce } from "@/lib/payments/corridors/versions";

/** A calendar day in some zone: "2026-11-26". */
export type LocalDate = string;

const HOLIDAY_TYPES = new Set(["public", "bank"]);
const holidaysByCountryYear = new Map<string, Set<LocalDate>>();

/** The country's public and bank holidays of a year, as local dates. */
function holidays(alpha2: string, year: number): Set<LocalDate> {
  const key = `${alpha2}:${year}`;
  let days = holidaysByCountryYear.get(key);
  if (!days) {
    const calendar = new Holidays(alpha2);
    days = new Set((calendar.getHolidays(year) || []).filter((h) => HOLIDAY_TYPES.has(h.type)).map((h) => h.date.slice(0, 10)));
    holidaysByCountryYear.set(key, days);
  }
  return days;
}

const weekdayOf = (day: LocalDate): number => new Date(`${day}T00:00:00Z`).getUTCDay();

export function isBusinessDay(alpha2: string, day: LocalDate): boolean {
  // What the operator knows now: a closure announced today moves every deadline computed from today on.
  const changes = tableInForce(clock.now()).calendars?.[alpha2];
  if (changes?.closed?.includes(day)) return false;
  if (changes?.open?.includes(day)) return true;
  const weekday = weekdayOf(day);
  if (weekday === 0 || weekday === 6) return false;
  return !holidays(alpha2, Number(day.slice(0, 4))).has(day);
}

export function nextDay(day: LocalDate): LocalDate {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** The first business day on or after `day`. */
export function businessDayFrom(alpha2: string, day: LocalDate): LocalDate {
  let d = day;
  while (!isBusinessDay(alpha2, d)) d = nextDay(d);
  return d;
}

/** An account's calendar: its country's weekends and holidays, in its bank's time zone. */
export interface AccountCalendar {
  /** ISO 3166 alpha-2. */
  country: string;
  /** IANA zone. */
  timeZone: string;
}

/**
 * The first business day of the account's calendar on or after the local day of `instant`: the
 * execution date a bank accepts for a payment file made then (a Saturday's file executes Monday).
 */
export function businessDayAt(calendar: AccountCalendar, instant: Date): LocalDate {
  return businessDayFrom(calendar.country, localTime(instant, calendar.timeZone).day);
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

interface WallClock {
  day: LocalDate;
  time: string;
  /** The zone's offset from UTC, in milliseconds. */
  offset: number;
}

// Every offset in use is a whole number of minutes and changes on a minute boundary, so the wall
// clock to the minute is a function of the instant's UTC minute. Intl's formatting was most of an
// estimate's cost, and every read in the same minute asks the same few (zone, minute) pairs: the
// estimates counted from now and the openings and closes they land on.
const wallClocks = new Map<string, WallClock>();
const WALL_CLOCKS_KEPT = 4096;

function wallClock(instant: Date, timeZone: string): WallClock {
  const minute = Math.floor(instant.getTime() / 60_000);
  const key = `${timeZone} ${minute}`;
  let wall = wallClocks.get(key);
  if (!wall) {
    const parts = Object.fromEntries(
      formatter(timeZone)
        .formatToParts(new Date(minute * 60_000))
        .map((p) => [p.type, p.value]),
    );
    const asUtc = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute);
    wall = { day: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}`, offset: asUtc - minute * 60_000 };
    if (wallClocks.size >= WALL_CLOCKS_KEPT) wallClocks.clear();
    wallClocks.set(key, wall);
  }
  return wall;
}

/** The wall clock of `timeZone` at `instant`: its local date and "HH:MM". */
export function localTime(instant: Date, timeZone: string): { day: LocalDate; time: string } {
  const { day, time } = wallClock(instant, timeZone);
  return { day, time };
}

/** The offset of `timeZone` from UTC at `instant`, in milliseconds. */
function offsetMs(instant: Date, timeZone: string): number {
  return wallClock(instant, timeZone).offset;
}

/** The instant at which `timeZone` shows `day` `time` (twice corrected for a DST change in between). */
export function zonedInstant(day: LocalDate, time: string, timeZone: string): Date {
  const wall = Date.parse(`${day}T${time}:00Z`);
  let guess = wall - offsetMs(new Date(wall), timeZone);
  guess = wall - offsetMs(new Date(guess), timeZone);
  return new Date(guess);
}
