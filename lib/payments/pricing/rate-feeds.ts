/**
 * Parsers of the published reference-rate formats. Pure: text in, a RateSet out,
 * or an Error naming what is wrong; nothing half-parsed is ever returned.
 *
 * - ECB: the euro foreign exchange reference rates, eurofxref-daily.xml (`Cube time=` holding
 *   `Cube currency= rate=` rows, units per one EUR). XML parsing is fast-xml-parser's (maintained,
 *   widely used, no native code); attribute values are kept as strings so no rate is ever a float.
 * - Secondary: our documented JSON (README, docs/decisions.md "Reference rates"):
 *   {"base": "USD", "published_at": "2026-11-20T15:00:00Z", "rates": {"NGN": "1530.25"}}.
 *   Rates are decimal strings; JSON numbers are refused, since JSON.parse already made them floats.
 */
import { XMLParser } from "fast-xml-parser";
import { z } from "zod";
import { isWireDecimal } from "@/lib/platform/money/decimal";

export type RateSource = "ecb" | "secondary";

export interface RateSet {
  source: RateSource;
  base: string;
  publishedAt: Date;
  /** Units of each currency per one `base`, as decimal strings. */
  rates: Record<string, string>;
}

const CURRENCY = /^[A-Z]{3}$/;

/**
 * The ECB's rates carry a date only. They are published around 16:00 CET (15:00 UTC in winter,
 * 14:00 UTC in summer); the set's age counts from 15:00 UTC that day.
 */
const ECB_PUBLICATION_TIME = "T15:00:00Z";

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseAttributeValue: false,
  removeNSPrefix: true,
  processEntities: false,
  isArray: (name) => name === "Cube",
});

type Cube = { time?: string; currency?: string; rate?: string; Cube?: Cube[] };

function checkedRate(currency: unknown, rate: unknown, where: string): [string, string] {
  if (typeof currency !== "string" || !CURRENCY.test(currency)) throw new Error(`${where}: not a currency code: ${String(currency)}`);
  if (!isWireDecimal(rate) || /^0(\.0+)?$/.test(rate)) throw new Error(`${where}: not a positive decimal rate for ${currency}: ${String(rate)}`);
  return [currency, rate];
}

/** eurofxref-daily.xml: the newest `Cube time=` of the document. */
export function parseEcbDaily(text: string): RateSet {
  let doc: { Envelope?: { Cube?: Cube[] } };
  try {
    doc = xml.parse(text, true) as typeof doc;
  } catch (err) {
    throw new Error(`ECB feed: not XML (${(err as Error).message})`);
  }
  const days = doc.Envelope?.Cube?.[0]?.Cube ?? [];
  const dated = days.filter((d) => typeof d.time === "string" && /^\d{4}-\d{2}-\d{2}$/.test(d.time));
  if (dated.length === 0) throw new Error("ECB feed: no <Cube time=YYYY-MM-DD> element");
  const day = dated.reduce((a, b) => (b.time! > a.time! ? b : a));
  const publishedAt = new Date(day.time + ECB_PUBLICATION_TIME);
  if (Number.isNaN(publishedAt.getTime())) throw new Error(`ECB feed: not a date: ${day.time}`);
  const rates = Object.fromEntries((day.Cube ?? []).map((c) => checkedRate(c.currency, c.rate, "ECB feed")));
  if (Object.keys(rates).length === 0) throw new Error(`ECB feed: no rates for ${day.time}`);
  return { source: "ecb", base: "EUR", publishedAt, rates };
}

const secondarySchema = z.strictObject({
  base: z.string().regex(CURRENCY),
  published_at: z.iso.datetime({ offset: true }),
  rates: z.record(z.string(), z.unknown()),
});

/** The secondary source's JSON (format above). */
export function parseSecondary(text: string): RateSet {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error("Secondary rates: not JSON");
  }
  const parsed = secondarySchema.safeParse(json);
  if (!parsed.success) throw new Error(`Secondary rates: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  const { base, published_at, rates } = parsed.data;
  const checked = Object.fromEntries(Object.entries(rates).map(([c, r]) => checkedRate(c, r, "Secondary rates")));
  if (Object.keys(checked).length === 0) throw new Error("Secondary rates: no rates");
  return { source: "secondary", base, publishedAt: new Date(published_at), rates: checked };
}
