import { parse } from "csv-parse/sync";
import type { ListFormat, SanctionedEntry, SanctionedKind } from "@/lib/compliance/screening/entity";
import countries from "@/lib/platform/i18n/iso-countries";

/**
 * OpenSanctions' "targets.simple.csv" (data/pep/opensanctions-peps/README.md): one row per entity
 * with a header row, columns id, schema, name, aliases, birth_date, countries, addresses,
 * identifiers, sanctions, phones, emails, dataset, first_seen, last_seen, last_change; list cells
 * separated by semicolons. Read for the PEP dataset: every row is mapped to the one entity model
 * (lib/compliance/screening/entity.ts), so the sanctions matcher screens it as it screens the other lists.
 */

const COLUMNS = [
  "id",
  "schema",
  "name",
  "aliases",
  "birth_date",
  "countries",
  "addresses",
  "identifiers",
  "sanctions",
  "phones",
  "emails",
  "dataset",
  "first_seen",
  "last_seen",
  "last_change",
] as const;
type Row = Record<(typeof COLUMNS)[number], string>;

// FollowTheMoney schemata; anything else (Organization, Company, PublicBody ...) is an entity.
const KINDS: Record<string, SanctionedKind> = { person: "individual", vessel: "vessel", airplane: "aircraft" };

/** A semicolon-separated cell as its distinct non-empty values. */
function values(cell: string | undefined): string[] {
  return [...new Set((cell ?? "").split(";").map((v) => v.trim()))].filter(Boolean);
}

/**
 * OpenSanctions writes countries as lower-case ISO 3166-1 alpha-2 codes (with a few codes of its
 * own for former or disputed territories, such as "suhh" or "xk"): alpha-3, as the entity model
 * keeps them; Kosovo by its user-assigned code, as the UN and OFAC readers do; the rest dropped.
 */
function alpha3(code: string): string | null {
  if (code.toLowerCase() === "xk") return "XKX";
  return countries.alpha2ToAlpha3(code.toUpperCase()) ?? null;
}

/** A published birth date ("1961-04-02", "1961-04", "1961"): kept as precise as published; anything else dropped. */
const BIRTH_DATE = /^\d{4}(-\d{2}(-\d{2})?)?$/;

export const opensanctionsPeps: ListFormat = {
  list: "opensanctions-peps",
  purpose: "pep",
  files: ["targets.simple.csv"],
  parse(files) {
    const file = files["targets.simple.csv"];
    if (!file) throw new Error("targets.simple.csv is missing");
    const rows = parse(file.toString("utf8").replace(/^\uFEFF/, ""), { columns: true, skip_empty_lines: true, relax_column_count: true }) as Row[];
    const header = Object.keys(rows[0] ?? {});
    const missing = COLUMNS.filter((c) => rows.length && !header.includes(c));
    if (missing.length) throw new Error(`targets.simple.csv lacks the columns ${missing.join(", ")}`);
    const entries: SanctionedEntry[] = [];
    for (const r of rows) {
      const entryId = r.id?.trim();
      const name = r.name?.trim();
      if (!entryId || !name) continue;
      const codes = values(r.countries)
        .map(alpha3)
        .filter((c): c is string => c !== null);
      entries.push({
        entryId,
        reference: null,
        name,
        kind: KINDS[r.schema?.trim().toLowerCase() ?? ""] ?? "entity",
        // The datasets the person is published in ("Every Politician", "Wikidata PEPs" ...): what
        // the evidence names as the entry's programmes.
        programs: values(r.dataset),
        aliases: values(r.aliases)
          .filter((a) => a !== name)
          // An alias number unique in the list (OFAC alt_num is): the entry id and its place.
          .map((alias, i) => ({ aliasId: `${entryId}#${i + 1}`, aliasType: "aka", name: alias, quality: null })),
        datesOfBirth: values(r.birth_date).filter((d) => BIRTH_DATE.test(d)),
        // The simple layout has one countries column (citizenship, residence, position): both.
        nationalities: [...new Set(codes)],
        countries: [...new Set(codes)],
        remarks: values(r.sanctions).join("; ") || null,
      });
    }
    return { list: "opensanctions-peps", entries };
  },
};
