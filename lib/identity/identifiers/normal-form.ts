/**
 * The normal form identifiers are compared in: customers' addresses, postal codes, phone numbers
 * and e-mail addresses. One module for every comparison (monitoring's customers sharing an
 * identifier, matching customers, the console's search), so two spellings of one address or
 * mailbox are one identifier everywhere. Stored beside the raw value (customers.address_key,
 * login_identifiers.match_key), never instead of it: what the customer wrote is what is shown.
 *
 * The word tables are data (data/identifiers/address-abbreviations.json: USPS Publication 28 with
 * French and Spanish counterparts; email-providers.json: the providers' documented rules).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js";
import { z } from "zod";

const DATA = path.join(process.cwd(), "data/identifiers");

const LanguageTable = z.strictObject({
  countries: z.array(z.string()).min(1),
  streetTypes: z.record(z.string(), z.array(z.string())),
  directionals: z.record(z.string(), z.array(z.string())),
  unitDesignators: z.array(z.string()),
  dropped: z.array(z.string()),
});
const AbbreviationsFile = z.strictObject({
  $comment: z.string(),
  sources: z.array(z.string()).min(1),
  languages: z.record(z.string(), LanguageTable),
  leadingOnly: z.record(z.string(), z.union([z.string(), z.record(z.string(), z.string())])),
});
const EmailProvidersFile = z.strictObject({
  $comment: z.string(),
  providers: z.array(
    z.strictObject({
      domains: z.array(z.string()).min(1),
      canonicalDomain: z.string().nullable(),
      ignoresDots: z.boolean(),
      plusTags: z.boolean(),
      source: z.string().min(1),
    }),
  ),
});

const UNIT = "#";
const DROP = "";

interface WordTable {
  words: Map<string, string>;
  leading: Map<string, string>;
}

/** Per language: every variant → its canonical form ('#' for a unit designator, '' for a dropped word). */
function wordTables() {
  const file = AbbreviationsFile.parse(JSON.parse(readFileSync(path.join(DATA, "address-abbreviations.json"), "utf8")));
  const byLanguage = new Map<string, WordTable>();
  const languageOf = new Map<string, string>();
  for (const [language, t] of Object.entries(file.languages)) {
    const words = new Map<string, string>();
    for (const table of [t.streetTypes, t.directionals])
      for (const [canonical, variants] of Object.entries(table)) {
        words.set(canonical, canonical);
        for (const v of variants) words.set(v, canonical);
      }
    for (const u of t.unitDesignators) words.set(u, UNIT);
    for (const d of t.dropped) words.set(d, DROP);
    const leading = file.leadingOnly[language];
    byLanguage.set(language, { words, leading: new Map(typeof leading === "object" ? Object.entries(leading) : []) });
    for (const country of t.countries) if (country !== "*") languageOf.set(country, language);
  }
  return { byLanguage, languageOf };
}

let tables: ReturnType<typeof wordTables> | undefined;

/** Upper case, accents and punctuation gone ("Rd." and "RD" alike; "#4" is "# 4"; "O'Brien" is "OBRIEN"). */
function words(s: string): string[] {
  return s
    .replace(/[º°ª]/g, "") // ordinal indicators: "2º" is 2
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toUpperCase()
    .replace(/['’`]/g, "")
    .replace(/#/g, " # ")
    .replace(/[^A-Z0-9#]+/g, " ")
    .trim()
    .split(" ")
    .filter(Boolean);
}

/**
 * An address line in its normal form: words upper-cased and unaccented, punctuation and spacing
 * folded, street types and directionals abbreviated (USPS Publication 28; the French or Spanish
 * table in countries of those languages, before the English one), every unit designator ("Apt",
 * "Suite", "Piso", "Bâtiment") one '#', number signs and articles left out.
 */
export function normalAddressLine(line: string, country?: string): string {
  tables ??= wordTables();
  const own = country ? tables.languageOf.get(country.toUpperCase()) : undefined;
  const chain = [own && tables.byLanguage.get(own), tables.byLanguage.get("en")].filter((t): t is WordTable => !!t);
  const out: string[] = [];
  words(line).forEach((w, i) => {
    let folded: string | undefined;
    for (const t of chain) {
      folded = (i === 0 ? t.leading.get(w) : undefined) ?? t.words.get(w);
      if (folded !== undefined) break;
    }
    const word = folded ?? w;
    if (word === DROP) return;
    if (word === UNIT && out.at(-1) === UNIT) return; // "Apt #4"
    out.push(word);
  });
  return out.join(" ");
}

/** How each country's postal codes are written; other countries: letters and digits, upper-cased. */
const POSTAL: Record<string, { digits: number; first?: boolean } | { alnum: true }> = {
  USA: { digits: 5, first: true }, // ZIP+4 names a part of the ZIP code's area: the ZIP code is the address's
  FRA: { digits: 5 },
  DEU: { digits: 5 },
  ESP: { digits: 5 },
  ITA: { digits: 5 },
  MEX: { digits: 5 },
  AUS: { digits: 4 },
  CAN: { alnum: true },
  GBR: { alnum: true },
  IRL: { alnum: true },
  NLD: { alnum: true },
};

/**
 * A postal code in its country's normal form: spaces, hyphens and case folded; where codes are all
 * digits, a leading zero a spreadsheet dropped is restored ("8001" in Spain is 08001) and a US ZIP+4
 * is its ZIP code.
 */
export function normalPostalCode(code: string, country: string): string {
  const rule = POSTAL[country.toUpperCase()];
  const alnum = code
    .normalize("NFKD")
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "");
  if (!rule || "alnum" in rule || !/^\d+$/.test(alnum)) return alnum;
  if (rule.first && alnum.length > rule.digits) return alnum.slice(0, rule.digits);
  return alnum.padStart(rule.digits, "0");
}

export interface AddressParts {
  addressLine1: string;
  addressLine2?: string;
  postalCode?: string;
  /** ISO 3166 alpha-3. */
  country: string;
}

/**
 * The key two addresses are the same by: country, postal code and both lines, each in its normal
 * form. Null without a first line (nothing to compare).
 */
export function addressKey(a: AddressParts): string | null {
  const line = normalAddressLine([a.addressLine1, a.addressLine2 ?? ""].join(" "), a.country);
  if (!line) return null;
  return [a.country.toUpperCase(), normalPostalCode(a.postalCode ?? "", a.country), line].join("|");
}

/** A stored profile's residence address key (customers.address_key); null without an address. */
export function customerAddressKey(profile: unknown): string | null {
  const a = (profile as { residenceAddress?: Partial<AddressParts> } | null)?.residenceAddress;
  if (!a?.addressLine1 || !a.country) return null;
  return addressKey({ addressLine1: a.addressLine1, addressLine2: a.addressLine2, postalCode: a.postalCode, country: a.country });
}

/** A phone number in E.164 (libphonenumber-js), read in `country`'s national format when it has no '+'; null when not a valid number. */
export function normalPhone(raw: string, country?: CountryCode): string | null {
  const phone = parsePhoneNumberFromString(raw.trim(), country);
  return phone?.isValid() ? phone.number : null;
}

let providers: Map<string, z.infer<typeof EmailProvidersFile>["providers"][number]> | undefined;

/**
 * An e-mail address as a mailbox: case folded; for providers whose rules are documented
 * (data/identifiers/email-providers.json) the dots they ignore and the '+' sub-address dropped and
 * the domain named canonically (googlemail.com is gmail.com). Null when not an address.
 */
export function normalEmail(raw: string): string | null {
  const value = raw.trim().toLowerCase();
  const at = value.lastIndexOf("@");
  if (at < 1 || at === value.length - 1) return null;
  let local = value.slice(0, at);
  let domain = value.slice(at + 1).replace(/\.$/, "");
  if (!providers) {
    const file = EmailProvidersFile.parse(JSON.parse(readFileSync(path.join(DATA, "email-providers.json"), "utf8")));
    providers = new Map(file.providers.flatMap((p) => p.domains.map((d) => [d, p] as const)));
  }
  const provider = providers.get(domain);
  if (provider) {
    if (provider.plusTags) local = local.split("+")[0];
    if (provider.ignoresDots) local = local.replace(/\./g, "");
    domain = provider.canonicalDomain ?? domain;
  }
  return local ? `${local}@${domain}` : null;
}

/** A login identifier's normal form (login_identifiers.match_key): the mailbox, or the E.164 number. */
export function identifierMatchKey(id: { type: "EMAIL" | "PHONE"; value: string }): string {
  if (id.type === "PHONE") return normalPhone(id.value) ?? id.value;
  return normalEmail(id.value) ?? id.value;
}

/**
 * What a search term names, in normal form, when it is a whole identifier: an e-mail address, or a
 * phone number (with its '+', or in `country`'s national format). Null for anything else.
 */
export function searchMatchKey(term: string, country?: CountryCode): string | null {
  if (term.includes("@")) return normalEmail(term);
  if (/^[\d\s()+.-]{6,}$/.test(term.trim())) return normalPhone(term, country);
  return null;
}
