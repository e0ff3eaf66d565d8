import { parse } from "csv-parse/sync";
import type { ListFormat, SanctionedEntry, SanctionedKind } from "@/lib/screening/entity";
import { countryCode, parseRemarks } from "./remarks";

/**
 * OFAC SDN legacy CSV (data/sanctions/ofac-sdn/README.md): sdn.csv, alt.csv, add.csv, no header,
 * CR LF lines, a Ctrl-Z end-of-file byte, `-0-` for empty. csv-parse reads the quoting.
 */
function rows(file: Buffer | undefined, name: string): string[][] {
  if (!file) throw new Error(`ofac-sdn: ${name} is missing`);
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

export const ofacSdn: ListFormat = {
  list: "ofac-sdn",
  files: ["sdn.csv", "alt.csv", "add.csv"],
  parse(files) {
    const byId = new Map<string, SanctionedEntry>();
    for (const r of rows(files["sdn.csv"], "sdn.csv")) {
      const entryId = value(r[0]);
      const name = value(r[1]);
      if (!entryId || !name) continue;
      const remarks = value(r[11]);
      const { datesOfBirth, nationalities } = parseRemarks(remarks);
      byId.set(entryId, {
        entryId,
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
    for (const r of rows(files["alt.csv"], "alt.csv")) {
      const entry = byId.get(value(r[0]) ?? "");
      const aliasId = value(r[1]);
      const name = value(r[3]);
      if (entry && aliasId && name) entry.aliases.push({ aliasId, aliasType: value(r[2]) ?? "aka", name });
    }
    for (const r of rows(files["add.csv"], "add.csv")) {
      const entry = byId.get(value(r[0]) ?? "");
      const code = countryCode(value(r[4]) ?? "");
      if (entry && code && !entry.countries.includes(code)) entry.countries.push(code);
    }
    return { list: "ofac-sdn", entries: [...byId.values()] };
  },
};
