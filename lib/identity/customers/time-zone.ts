/**
 * The customer's time zone, from the residence address: what every time shown to the customer
 * (disclosure, receipt, hosted pages, e-mails) is written in. Stored times and the API stay UTC.
 *
 * An IANA zone, derived in this order:
 * 1. a country whose zones all keep the same offsets (France, Germany, India...): the country
 *    suffices (`countries-and-timezones`, the IANA zone table per country);
 * 2. otherwise the city, within the region when the tables know it (`city-timezones`, about
 *    7,300 cities with their zone and state or province): El Paso, TX is Mountain time;
 * 3. otherwise the region: the zone of its most populous known city (Texas: Houston, Central);
 * 4. otherwise UTC, which the formatted times then name.
 */
import cityTimeZones, { type CityData } from "city-timezones";
import countryTimeZones from "countries-and-timezones";
import Holidays from "date-holidays";
import anyAscii from "any-ascii";
import { eq } from "drizzle-orm";
import type { Executor } from "@/db";
import { customers } from "@/db/schema";
import countries from "@/lib/platform/i18n/iso-countries";
import { DEFAULT_TIME_ZONE } from "@/lib/platform/i18n/format";
import type { Address } from "./profile";

/** Only the parts that locate the customer; any of them may be missing on an old or partial profile. */
export type ResidenceAddress = Partial<Pick<Address, "city" | "region" | "country">>;

const key = (s: string) =>
  anyAscii(s)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");

/** The country's zone when all its zones keep the same offsets, else null (several clocks). */
function uniformCountryZone(alpha2: string): string | null {
  const zones = countryTimeZones.getTimezonesForCountry(alpha2) ?? [];
  if (zones.length === 0) return null;
  const [first] = zones;
  return zones.every((z) => z.utcOffset === first.utcOffset && z.dstOffset === first.dstOffset) ? first.name : null;
}

/** The region as written ("TX", "US-TX", "Texas", "São Paulo") and, for an ISO 3166-2 code, its name. */
function regionKeys(alpha2: string, region: string): Set<string> {
  const code = region
    .trim()
    .toUpperCase()
    .replace(new RegExp(`^${alpha2}-`), "");
  const keys = new Set([key(region), key(code)]);
  // date-holidays (already used for business days) knows most subdivisions' codes and names.
  const name = (new Holidays().getStates(alpha2) as Record<string, string> | undefined)?.[code];
  if (name) keys.add(key(name));
  return keys;
}

const inRegion = (c: CityData, keys: Set<string>) => keys.has(key(c.province)) || (c.state_ansi !== undefined && keys.has(key(c.state_ansi)));

const mostPopulous = (cities: CityData[]): string | null => (cities.length ? cities.reduce((a, b) => (b.pop > a.pop ? b : a)).timezone : null);

/** A zone this platform's Intl knows (the city table could name one ICU does not). */
function known(zone: string | null): string | null {
  if (!zone) return null;
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return zone;
  } catch {
    return null;
  }
}

function derive(address: ResidenceAddress): string {
  const alpha3 = address.country?.toUpperCase();
  const alpha2 = alpha3 && countries.alpha3ToAlpha2(alpha3);
  if (!alpha3 || !alpha2) return DEFAULT_TIME_ZONE;
  const uniform = known(uniformCountryZone(alpha2));
  if (uniform) return uniform;
  const inCountry = cityTimeZones.cityMapping.filter((c) => c.iso3 === alpha3);
  const region = address.region ? regionKeys(alpha2, address.region) : null;
  const ofRegion = region ? inCountry.filter((c) => inRegion(c, region)) : [];
  // A region the tables do not know ("JAL" in Mexico) does not hide the city.
  const scope = ofRegion.length ? ofRegion : inCountry;
  const city = address.city ? key(address.city) : null;
  const byCity = city ? scope.filter((c) => key(c.city_ascii) === city || key(c.city) === city) : [];
  return known(mostPopulous(byCity)) ?? known(mostPopulous(ofRegion)) ?? DEFAULT_TIME_ZONE;
}

const derived = new Map<string, string>();

/** The IANA time zone of a residence address (alpha-3 country); UTC when it cannot be told. */
export function timeZoneOfAddress(address: ResidenceAddress | null | undefined): string {
  if (!address) return DEFAULT_TIME_ZONE;
  const k = [address.country, address.region, address.city].map((s) => s?.trim() ?? "").join("|");
  let zone = derived.get(k);
  if (zone === undefined) {
    zone = derive(address);
    if (derived.size >= 10_000) derived.clear(); // a bound, not a policy: addresses repeat little
    derived.set(k, zone);
  }
  return zone;
}

/** The residence address inside a stored profile (jsonb, as submitted), if any. */
export function residenceAddressOf(profile: Record<string, unknown> | null | undefined): ResidenceAddress | null {
  const a = profile?.residenceAddress;
  if (!a || typeof a !== "object") return null;
  const { city, region, country } = a as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === "string" ? v : undefined);
  return { city: text(city), region: text(region), country: text(country) };
}

/** The customer's time zone, from the stored profile; UTC without one. */
export async function customerTimeZone(db: Executor, customerId: string): Promise<string> {
  const [row] = await db.select({ profile: customers.profile }).from(customers).where(eq(customers.id, customerId));
  return timeZoneOfAddress(residenceAddressOf(row?.profile));
}
