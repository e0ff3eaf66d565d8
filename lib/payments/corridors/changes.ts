/**
 * What a configuration version changes, for the people who approve it: the fields that differ
 * between two documents (by corridor code and field, e.g. "US-MX.principalFee"; the tier limits
 * as "tierLimits.1.P1D", the funding terms as "funding.windows.BANK_TRANSFER.businessDays"), the problems of a
 * proposed document at the field they are about, and a preview of a quote under each price.
 */
import { z } from "zod";
import { DomainError } from "@/lib/platform/errors";
import { minorUnitExponent } from "@/lib/platform/money/currency";
import { Decimal, tryParseWireDecimal } from "@/lib/platform/money/decimal";
import type { ReferenceRateProvider } from "@/lib/payments/pricing/reference-rate";
import { priceQuote } from "@/lib/payments/pricing/service-pricing";
import { LIMIT_WINDOWS, VERIFICATION_TIERS } from "@/lib/payments/limits/tiers";
import { configurationDocumentSchema, type Corridor } from "./schema";

export interface FieldChange {
  /** "US-MX.principalFee", "US-MX.referenceRate.mid", "US-MX" (a corridor added or removed). */
  field: string;
  before: string | null;
  after: string | null;
}

type Doc = { corridors?: unknown; tierLimits?: unknown; funding?: unknown; calendars?: unknown; payoutBanks?: unknown; accountRequirements?: unknown };

/** A document's values by field: each corridor's leaves under its code, the tier limits' under "tierLimits"; arrays as their JSON. */
function flatten(doc: Doc): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (prefix: string, value: unknown) => {
    if (value && typeof value === "object" && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value)) walk(`${prefix}.${k}`, v);
    } else out.set(prefix, typeof value === "string" ? value : JSON.stringify(value));
  };
  for (const c of Array.isArray(doc.corridors) ? (doc.corridors as Record<string, unknown>[]) : []) {
    const { code, ...fields } = c;
    out.set(String(code), "offered");
    for (const [k, v] of Object.entries(fields)) walk(`${String(code)}.${k}`, v);
  }
  if (doc.tierLimits !== undefined) walk("tierLimits", doc.tierLimits);
  if (doc.calendars !== undefined) walk("calendars", doc.calendars);
  // Account requirements by corridor and method, each as its JSON (a field's format is one line of it).
  for (const r of Array.isArray(doc.accountRequirements) ? (doc.accountRequirements as Record<string, unknown>[]) : []) {
    const { corridor, method, ...rest } = r;
    out.set(`accountRequirements.${String(corridor)}.${String(method)}`, JSON.stringify(rest));
  }
  // Payout banks by id (a bank added, removed, or its fields), whatever their order.
  for (const bank of Array.isArray(doc.payoutBanks) ? (doc.payoutBanks as Record<string, unknown>[]) : []) {
    const { id, ...fields } = bank;
    out.set(`payoutBanks.${String(id)}`, "pays out");
    walk(`payoutBanks.${String(id)}`, fields);
  }
  if (doc.funding && typeof doc.funding === "object") {
    // Collection accounts by IBAN (an account added, removed, or its fields), whatever their order.
    const { collectionAccounts, ...rest } = doc.funding as Record<string, unknown>;
    walk("funding", rest);
    for (const account of Array.isArray(collectionAccounts) ? (collectionAccounts as Record<string, unknown>[]) : []) {
      const { iban, ...fields } = account;
      out.set(`funding.collectionAccounts.${String(iban)}`, "collects");
      walk(`funding.collectionAccounts.${String(iban)}`, fields);
    }
  }
  return out;
}

/** The fields whose value differs from `before` to `after`, in `after`'s order (removed ones last). */
export function diffDocuments(before: Doc, after: Doc): FieldChange[] {
  const a = flatten(before);
  const b = flatten(after);
  const changes: FieldChange[] = [];
  for (const [field, value] of b) if (a.get(field) !== value) changes.push({ field, before: a.get(field) ?? null, after: value });
  for (const [field, value] of a) if (!b.has(field)) changes.push({ field, before: value, after: null });
  return changes;
}

/** A field name for a schema problem: "US-MX.principalFee" rather than "corridors.0.principalFee". */
function fieldOf(doc: Doc, path: PropertyKey[]): string {
  if (path[0] !== "corridors" || typeof path[1] !== "number") return path.map(String).join(".") || "document";
  const code = (Array.isArray(doc.corridors) ? (doc.corridors[path[1]] as { code?: unknown } | undefined)?.code : undefined) ?? `corridor ${path[1] + 1}`;
  return [String(code), ...path.slice(2).map(String)].join(".");
}

/** Every problem of a proposed document, each at its field; empty when it is valid. */
export function documentProblems(raw: unknown): { field: string; message: string }[] {
  const result = configurationDocumentSchema.safeParse(raw);
  if (result.success) return [];
  const doc = raw && typeof raw === "object" ? (raw as Doc) : {};
  return result.error.issues.map((i) => ({ field: fieldOf(doc, i.path), message: i.message }));
}

/** A 400 validation error listing a document's problems at their fields (nothing when it is valid). */
export function checkDocument(raw: unknown): void {
  const problems = documentProblems(raw);
  if (problems.length === 0) return;
  const issues = problems.map((p) => ({ field: p.field, code: "validation.fieldInvalid" as const, message: p.message }));
  throw new DomainError("validation.fieldInvalid", {
    message: `The configuration is not valid: ${problems
      .slice(0, 5)
      .map((p) => `${p.field}: ${p.message}`)
      .join("; ")}`,
    details: { issues },
    hint: "fix_request",
  });
}

/** The amount a preview quotes: 100 in the origin currency, or the corridor's minimum when above it. */
function previewAmount(corridor: Corridor): string {
  return corridor.minimumOriginAmount.gt(100) ? corridor.minimumOriginAmount.toFixed(2) : "100.00";
}

/**
 * "100.00 USD to MXN: fee 2.99 USD, rate 18.75, receives 1,875.00 MXN, pays 102.99 USD": a
 * service-priced quote of the corridor at `now`, what the approver compares before and after.
 */
export function previewQuote(corridor: Corridor, now: Date, rates: ReferenceRateProvider): string {
  const amount = previewAmount(corridor);
  const money = (value: string, currency: string) => `${new Decimal(value).toFixed(minorUnitExponent(currency))} ${currency}`;
  try {
    const q = priceQuote({ corridor, originAmount: amount, now, rates });
    const o = corridor.originCurrency;
    const d = corridor.destinationCurrency;
    return `${amount} ${o} to ${d}: fee ${money(q.principalFee, o)}, rate ${new Decimal(q.fxRate).toFixed()}, receives ${money(q.destinationAmount, d)}, pays ${money(q.totalCustomerCost, o)}`;
  } catch (err) {
    return `no quote: ${err instanceof Error ? err.message : String(err)}`;
  }
}

export const effectiveAtSchema = z.iso.datetime({ offset: true });

/** The prices of one corridor an operator changes on the console's form (decimal strings, as in the document). */
export const PRICE_FIELDS = ["principalFee", "minimumOriginAmount", "partnerFeeCap", "fxTolerance", "reviewThreshold"] as const;
/**
 * The prices a corridor may go without, on the same form: empty removes them. Fee bands and
 * partners' margins are written as pairs, "500.00=4.99; 1500.00=7.99" and "par_1=0.005"; the
 * funding methods as a list, "CARD, BANK_TRANSFER" (empty: every method).
 */
export const OPTIONAL_PRICE_FIELDS = ["maximumOriginAmount", "fxMargin", "principalFeeBands", "partnerFxMargins", "fundingMethods"] as const;
export type OptionalPriceField = (typeof OPTIONAL_PRICE_FIELDS)[number];
export type PriceFields = Record<(typeof PRICE_FIELDS)[number], string> & Partial<Record<OptionalPriceField, string>>;

/** "a=1; b=2" (commas, semicolons or new lines between pairs) as its pairs; null when a pair is not "key=value". */
export function parsePairs(text: string): [string, string][] | null {
  const entries = text
    .split(/[;,\n]/)
    .map((e) => e.trim())
    .filter(Boolean);
  const pairs = entries.map((e) => e.split("=").map((x) => x.trim()));
  return pairs.every((p) => p.length === 2 && p[0] && p[1]) ? (pairs as [string, string][]) : null;
}

/** A corridor's optional price as the form writes it ("" when the corridor has none). */
export function optionalPriceText(corridor: Record<string, unknown> | undefined, field: OptionalPriceField): string {
  const value = corridor?.[field];
  if (value === undefined || value === null) return "";
  if (field === "principalFeeBands" && Array.isArray(value)) {
    return (value as { fromOriginAmount: unknown; fee: unknown }[]).map((b) => `${String(b.fromOriginAmount)}=${String(b.fee)}`).join("; ");
  }
  if (field === "fundingMethods" && Array.isArray(value)) return value.map(String).join(", ");
  if (field === "partnerFxMargins" && typeof value === "object") {
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join("; ");
  }
  return String(value);
}

/** The document value of an optional price written on the form (the pairs already checked by the form). */
function optionalPriceValue(field: OptionalPriceField, text: string): unknown {
  if (field === "fundingMethods") return text.split(/[\s,;]+/).filter(Boolean);
  const pairs = parsePairs(text) ?? [];
  if (field === "principalFeeBands") return pairs.map(([fromOriginAmount, fee]) => ({ fromOriginAmount, fee }));
  if (field === "partnerFxMargins") return Object.fromEntries(pairs);
  return text;
}

/**
 * `document` with corridor `code`'s prices replaced (the rest untouched); a code it lacks changes
 * nothing. A value equal to the one there ("10" for "10.00") keeps its written form, so the
 * version's difference lists only what changed; an optional price left empty is removed.
 */
export function withCorridorPrices(document: Record<string, unknown>, code: string, prices: PriceFields): Record<string, unknown> {
  const corridors = Array.isArray(document.corridors) ? (document.corridors as Record<string, unknown>[]) : [];
  const same = (a: unknown, b: string) => {
    const x = tryParseWireDecimal(a);
    const y = tryParseWireDecimal(b);
    return a === b || (x !== null && y !== null && x.eq(y));
  };
  const changed = (c: Record<string, unknown>) => {
    const next: Record<string, unknown> = { ...c };
    for (const key of PRICE_FIELDS) if (!same(c[key], prices[key])) next[key] = prices[key];
    for (const key of OPTIONAL_PRICE_FIELDS) {
      const text = prices[key]?.trim();
      if (text === undefined) continue;
      if (text === "") delete next[key];
      else if (key === "principalFeeBands" || key === "partnerFxMargins" || key === "fundingMethods") {
        if (optionalPriceText(c, key) !== optionalPriceText({ [key]: optionalPriceValue(key, text) }, key)) next[key] = optionalPriceValue(key, text);
      } else if (!same(c[key], text)) next[key] = text;
    }
    return next;
  };
  return { ...document, corridors: corridors.map((c) => (c.code === code ? changed(c) : c)) };
}

/** The tier limits as the console's form names them ("1.P1D": tier 1's one-day limit), in the document's order. */
export const TIER_LIMIT_FIELDS = VERIFICATION_TIERS.flatMap((t) => LIMIT_WINDOWS.map((w) => `${t}.${w}` as const));
export type TierLimitField = (typeof TIER_LIMIT_FIELDS)[number];

/** A document's tier limits by form field (empty when it has none). */
export function tierLimitTexts(document: Record<string, unknown> | undefined): Partial<Record<TierLimitField, string>> {
  const limits = (document?.tierLimits ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const texts: Partial<Record<TierLimitField, string>> = {};
  for (const field of TIER_LIMIT_FIELDS) {
    const [tier, window] = field.split(".");
    const value = limits[tier]?.[window];
    if (typeof value === "string") texts[field] = value;
  }
  return texts;
}

/**
 * `document` with its tier limits replaced by `limits` (form field to amount); a value equal to
 * the one there ("2999.00" for "2999") keeps its written form, so the diff lists only what changed.
 */
export function withTierLimits(document: Record<string, unknown>, limits: Record<TierLimitField, string>): Record<string, unknown> {
  const current = tierLimitTexts(document);
  const next: Record<string, Record<string, string>> = {};
  for (const field of TIER_LIMIT_FIELDS) {
    const [tier, window] = field.split(".");
    const was = current[field];
    const x = tryParseWireDecimal(was);
    const y = tryParseWireDecimal(limits[field]);
    (next[tier] ??= {})[window] = was !== undefined && x !== null && y !== null && x.eq(y) ? was : limits[field];
  }
  return { ...document, tierLimits: next };
}

/**
 * The funding terms as the console's form writes them: each window a whole number (empty: the
 * setting's), the collection accounts one per line, "IBAN; BIC; currencies; time zone; name"
 * (empty: the settings' account).
 */
export const FUNDING_FIELDS = ["cardMinutes", "bankTransferBusinessDays", "collectionAccounts"] as const;
export type FundingField = (typeof FUNDING_FIELDS)[number];

interface FundingDoc {
  windows?: { CARD?: { minutes?: unknown }; BANK_TRANSFER?: { businessDays?: unknown } };
  collectionAccounts?: { iban?: unknown; bic?: unknown; currencies?: unknown; timeZone?: unknown; name?: unknown }[];
}

/** One collection account per line as its document object; null when a line does not have its five parts. */
export function parseAccountLines(text: string): Record<string, unknown>[] | null {
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const accounts = lines.map((line) => {
    const [iban, bic, currencies, timeZone, ...name] = line.split(";").map((p) => p.trim());
    if (!iban || !bic || !currencies || !timeZone || name.join(";").trim() === "") return null;
    return {
      iban: iban.replace(/\s+/g, "").toUpperCase(),
      bic: bic.toUpperCase(),
      name: name.join(";").trim(),
      currencies: currencies.split(/[\s,]+/).filter(Boolean),
      timeZone,
    };
  });
  return accounts.every((a) => a !== null) ? (accounts as Record<string, unknown>[]) : null;
}

/** A document's funding terms by form field ("" where the setting applies). */
export function fundingTexts(document: Record<string, unknown> | undefined): Record<FundingField, string> {
  const f = (document?.funding ?? {}) as FundingDoc;
  const text = (v: unknown) => (v === undefined || v === null ? "" : String(v));
  return {
    cardMinutes: text(f.windows?.CARD?.minutes),
    bankTransferBusinessDays: text(f.windows?.BANK_TRANSFER?.businessDays),
    collectionAccounts: (f.collectionAccounts ?? [])
      .map((a) => [a.iban, a.bic, Array.isArray(a.currencies) ? a.currencies.join(", ") : a.currencies, a.timeZone, a.name].map(text).join("; "))
      .join("\n"),
  };
}

/**
 * `document` with its funding terms replaced by the form's (an empty field removes its part, and
 * no part left removes the funding terms: the settings apply). A number is kept as written when it
 * is not one ("thirty"), so the schema refuses it at its field.
 */
export function withFunding(document: Record<string, unknown>, texts: Record<FundingField, string>): Record<string, unknown> {
  const number = (t: string) => (/^\d+$/.test(t) ? Number(t) : t);
  const windows: Record<string, unknown> = {};
  if (texts.cardMinutes.trim()) windows.CARD = { minutes: number(texts.cardMinutes.trim()) };
  if (texts.bankTransferBusinessDays.trim()) windows.BANK_TRANSFER = { businessDays: number(texts.bankTransferBusinessDays.trim()) };
  const accounts = texts.collectionAccounts.trim() ? (parseAccountLines(texts.collectionAccounts) ?? []) : [];
  const funding = {
    ...(Object.keys(windows).length > 0 ? { windows } : {}),
    ...(accounts.length > 0 ? { collectionAccounts: accounts } : {}),
  };
  const { funding: _before, ...rest } = document;
  return Object.keys(funding).length > 0 ? { ...rest, funding } : rest;
}

const CALENDAR_LINE = /^([A-Za-z]{2})\s+(closed|open)\s+(.+)$/;

/**
 * The calendar changes as the console's form writes them, one line per country and kind:
 * "MX closed 2027-01-05, 2027-01-06", "DE open 2026-12-24"; null when a line is not of that form.
 */
export function parseCalendarLines(text: string): Record<string, { closed?: string[]; open?: string[] }> | null {
  const out: Record<string, { closed?: string[]; open?: string[] }> = {};
  for (const line of text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)) {
    const m = CALENDAR_LINE.exec(line);
    if (!m) return null;
    const days = m[3].split(/[\s,;]+/).filter(Boolean);
    const country = (out[m[1].toUpperCase()] ??= {});
    country[m[2] as "closed" | "open"] = [...(country[m[2] as "closed" | "open"] ?? []), ...days];
  }
  return out;
}

/** A document's calendar changes as the form's lines. */
export function calendarText(document: Record<string, unknown> | undefined): string {
  const calendars = (document?.calendars ?? {}) as Record<string, { closed?: unknown; open?: unknown }>;
  return Object.entries(calendars)
    .flatMap(([country, c]) =>
      (["closed", "open"] as const).filter((k) => Array.isArray(c[k])).map((k) => `${country} ${k} ${(c[k] as unknown[]).map(String).join(", ")}`),
    )
    .join("\n");
}

/** `document` with its calendar changes replaced by the form's lines (none: the holiday table alone). */
export function withCalendars(document: Record<string, unknown>, text: string): Record<string, unknown> {
  const calendars = parseCalendarLines(text) ?? {};
  const { calendars: _before, ...rest } = document;
  return Object.keys(calendars).length > 0 ? { ...rest, calendars } : rest;
}

/** "[{...}]": a JSON list, what the payout banks' form takes (the PAYOUT_BANKS setting's form); null when it is not one. */
export function parsePayoutBanksText(text: string): unknown[] | null {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/** A document's payout banks as the form writes them ("" when the setting applies). */
export function payoutBanksText(document: Record<string, unknown> | undefined): string {
  return Array.isArray(document?.payoutBanks) ? JSON.stringify(document.payoutBanks, null, 2) : "";
}

/** `document` with its payout banks replaced by the form's list (empty: the PAYOUT_BANKS setting). */
export function withPayoutBanks(document: Record<string, unknown>, text: string): Record<string, unknown> {
  const banks = text.trim() === "" ? null : parsePayoutBanksText(text);
  const { payoutBanks: _before, ...rest } = document;
  return banks ? { ...rest, payoutBanks: banks } : rest;
}
