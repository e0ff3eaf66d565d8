import { XMLParser } from "fast-xml-parser";
import type { ListFormat, SanctionedAlias, SanctionedEntry } from "@/lib/compliance/screening/entity";
import { countryCode } from "../ofac-sdn/remarks";

/**
 * The UN Security Council Consolidated List, XML (data/sanctions/un-consolidated/README.md):
 * INDIVIDUALS/INDIVIDUAL and ENTITIES/ENTITY, read with fast-xml-parser (already a dependency, for
 * the bank statement imports). An individual's name is FIRST_NAME .. FOURTH_NAME in natural
 * order; the regime (UN_LIST_TYPE) is its program and REFERENCE_NUMBER ("CDi.001") its reference.
 * A "Low" quality alias, and the name in its original script (transliterated for matching), are
 * weak aliases matched only exactly (the UN's guidance on low-quality aliases).
 */

type Node = Record<string, unknown>;

// Elements that repeat: always arrays, even with one child.
const REPEATED = new Set([
  "INDIVIDUAL",
  "ENTITY",
  "INDIVIDUAL_ALIAS",
  "ENTITY_ALIAS",
  "INDIVIDUAL_DATE_OF_BIRTH",
  "NATIONALITY",
  "VALUE",
  "INDIVIDUAL_ADDRESS",
  "ENTITY_ADDRESS",
  "NAME_ORIGINAL_SCRIPT",
]);

const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => REPEATED.has(name),
});

function text(v: unknown): string | null {
  if (typeof v === "string") return v.trim() || null;
  if (typeof v === "number") return String(v);
  return null;
}

function list(v: unknown): Node[] {
  return Array.isArray(v) ? (v.filter((x) => x && typeof x === "object") as Node[]) : [];
}

// UN spellings that i18n-iso-countries (through countryCode) does not know.
const UN_COUNTRIES: Record<string, string> = {
  "democratic people's republic of korea": "PRK",
  "democratic republic of the congo": "COD",
  "iran (islamic republic of)": "IRN",
  "united kingdom of great britain and northern ireland": "GBR",
  "united republic of tanzania": "TZA",
  "state of palestine": "PSE",
  "syrian arab republic": "SYR",
  "russian federation": "RUS",
  türkiye: "TUR",
  congo: "COG",
};

function country(name: string | null): string | null {
  if (!name) return null;
  return UN_COUNTRIES[name.toLowerCase()] ?? countryCode(name);
}

/** Dates of birth as the matcher compares them: "YYYY-MM-DD", "YYYY", or "YYYY/YYYY" for BETWEEN. */
function datesOfBirth(node: Node): string[] {
  const out = new Set<string>();
  for (const d of list(node.INDIVIDUAL_DATE_OF_BIRTH)) {
    const date = text(d.DATE);
    const year = text(d.YEAR);
    const from = text(d.FROM_YEAR);
    const to = text(d.TO_YEAR);
    if (date && /^\d{4}-\d{2}-\d{2}/.test(date)) out.add(date.slice(0, 10));
    else if (year && /^\d{4}$/.test(year)) out.add(year);
    else if (from && to && /^\d{4}$/.test(from) && /^\d{4}$/.test(to)) out.add(`${from}/${to}`);
  }
  return [...out];
}

function aliases(entryId: string, node: Node, element: "INDIVIDUAL_ALIAS" | "ENTITY_ALIAS"): SanctionedAlias[] {
  const out: SanctionedAlias[] = [];
  list(node[element]).forEach((a) => {
    const name = text(a.ALIAS_NAME);
    if (!name) return;
    const quality = text(a.QUALITY);
    out.push({
      aliasId: `${entryId}-${out.length + 1}`,
      // "Good", "Low", or the older "a.k.a." / "f.k.a." markers.
      aliasType: quality ?? "aka",
      name,
      quality: quality?.toLowerCase() === "low" ? "low" : null,
    });
  });
  for (const name of (node.NAME_ORIGINAL_SCRIPT as unknown[] | undefined)?.map(text) ?? []) {
    if (name) out.push({ aliasId: `${entryId}-${out.length + 1}`, aliasType: "original script", name, quality: "low" });
  }
  return out;
}

export const unConsolidated: ListFormat = {
  list: "un-consolidated",
  files: ["consolidated.xml"],
  parse(files) {
    const file = files["consolidated.xml"];
    if (!file) throw new Error("consolidated.xml is missing");
    const doc = parser.parse(file.toString("utf8")) as Node;
    const root = (doc.CONSOLIDATED_LIST ?? {}) as Node;
    const entries: SanctionedEntry[] = [];
    const individuals = list((root.INDIVIDUALS as Node | undefined)?.INDIVIDUAL);
    const entities = list((root.ENTITIES as Node | undefined)?.ENTITY);
    if (individuals.length + entities.length === 0) throw new Error("consolidated.xml has no INDIVIDUAL or ENTITY");
    for (const node of individuals) {
      const entryId = text(node.DATAID);
      const name = [node.FIRST_NAME, node.SECOND_NAME, node.THIRD_NAME, node.FOURTH_NAME].map(text).filter(Boolean).join(" ");
      if (!entryId || !name) continue;
      const nationalities = list(node.NATIONALITY)
        .flatMap((n) => (Array.isArray(n.VALUE) ? n.VALUE.map(text) : []))
        .map(country)
        .filter((c): c is string => c !== null);
      entries.push({
        entryId,
        reference: text(node.REFERENCE_NUMBER),
        name,
        kind: "individual",
        programs: [text(node.UN_LIST_TYPE)].filter((p): p is string => p !== null),
        aliases: aliases(entryId, node, "INDIVIDUAL_ALIAS"),
        datesOfBirth: datesOfBirth(node),
        nationalities: [...new Set(nationalities)],
        countries: [...new Set(list(node.INDIVIDUAL_ADDRESS).map((a) => country(text(a.COUNTRY))))].filter((c): c is string => c !== null),
        remarks: text(node.COMMENTS1),
      });
    }
    for (const node of entities) {
      const entryId = text(node.DATAID);
      const name = text(node.FIRST_NAME);
      if (!entryId || !name) continue;
      entries.push({
        entryId,
        reference: text(node.REFERENCE_NUMBER),
        name,
        kind: "entity",
        programs: [text(node.UN_LIST_TYPE)].filter((p): p is string => p !== null),
        aliases: aliases(entryId, node, "ENTITY_ALIAS"),
        datesOfBirth: [],
        nationalities: [],
        countries: [...new Set(list(node.ENTITY_ADDRESS).map((a) => country(text(a.COUNTRY))))].filter((c): c is string => c !== null),
        remarks: text(node.COMMENTS1),
      });
    }
    return { list: "un-consolidated", entries };
  },
};
