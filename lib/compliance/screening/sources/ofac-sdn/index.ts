import { parse } from "csv-parse/sync";
import type { ListFormat, SanctionedEntry, SanctionedKind } from "@/lib/compliance/screening/entity";
import { countryCode, parseRemarks } from "./remarks";

/**
 * OFAC legacy CSV (data/sanctions/ofac-sdn/README.md): no header, CR LF lines, a Ctrl-Z
 * end-of-file byte, `-0-` for empty. csv-parse reads the quoting.
 */
function rows(file: Buffer | undefined, name: string): string[][] {
  if (!file) throw new Error(`${name} is missing`);
  // latin1: OFAC publishes Latin-1; the Ctrl-Z (0x1A) end-of-file byte is not a row.
  const text = file.toString("latin1").replace(/\x1a\s*$/, "");
  return parse(text, { relax_column_count: true, skip_empty_lines: true, trim: true }) as string[][];
}

/** `-0-` (OFAC's empty) and blanks as null. */
function value(cell: string | undefined): string | null {
  const v = cell?.trim() ?? "";
  return v === "" || v === "-0-" ? null : v;
}

const KINDS: Record<string, SanctionedKind> = { individual: "individual", vessel: "vessel", aircraft: "aircraft" };

/**
 * One OFAC list in the legacy CSV columns: the SDN list (sdn.csv, alt.csv, add.csv) and the
 * consolidated non-SDN list (cons_prim.csv, cons_alt.csv, cons_add.csv), which OFAC publishes in
 * the same columns. The remarks overflow file (sdn_comments.csv, cons_comments.csv) holds only
 * the tail of long entity remarks (directives, tax ids), nothing the matcher reads: not required.
 */
function ofacCsvFormat(list: string, names: { primary: string; alias: string; address: string }): ListFormat {
  return {
    list,
    files: [names.primary, names.alias, names.address],
    parse(files) {
      const byId = new Map<string, SanctionedEntry>();
      for (const r of rows(files[names.primary], names.primary)) {
        const entryId = value(r[0]);
        const name = value(r[1]);
        if (!entryId || !name) continue;
        const remarks = value(r[11]);
        const { datesOfBirth, nationalities } = parseRemarks(remarks);
        byId.set(entryId, {
          entryId,
          reference: null,
          name,
          kind: KINDS[value(r[2])?.toLowerCase() ?? ""] ?? "entity",
          programs: (value(r[3]) ?? "")
            .split(/\]\s*\[|;/)
            .map((p) => p.replace(/[[\]]/g, "").trim())
            .filter(Boolean),
          aliases: [],
          datesOfBirth,
          nationalities,
          countries: [],
          remarks,
        });
      }
      for (const r of rows(files[names.alias], names.alias)) {
        const entry = byId.get(value(r[0]) ?? "");
        const aliasId = value(r[1]);
        const name = value(r[3]);
        if (entry && aliasId && name) entry.aliases.push({ aliasId, aliasType: value(r[2]) ?? "aka", name, quality: null });
      }
      for (const r of rows(files[names.address], names.address)) {
        const entry = byId.get(value(r[0]) ?? "");
        const code = countryCode(value(r[4]) ?? "");
        if (entry && code && !entry.countries.includes(code)) entry.countries.push(code);
      }
      return { list, entries: [...byId.values()] };
    },
  };
}

export const ofacSdn = ofacCsvFormat("ofac-sdn", { primary: "sdn.csv", alias: "alt.csv", address: "add.csv" });
export const ofacConsolidated = ofacCsvFormat("ofac-consolidated", { primary: "cons_prim.csv", alias: "cons_alt.csv", address: "cons_add.csv" });
