/**
 * The one entity model every sanctions list maps to (lib/screening/sources/<format>): the OFAC
 * SDN list today, the UN and EU consolidated lists the same way later. Stored per list version
 * (db/schema/sanctions.ts) and indexed in memory for matching (lib/screening/match-index.ts).
 */
export type SanctionedKind = "individual" | "entity" | "vessel" | "aircraft";

export interface SanctionedAlias {
  /** The alias's number in its list (OFAC alt_num). */
  aliasId: string;
  /** aka, fka, nka (OFAC), or the list's own word. */
  aliasType: string;
  name: string;
}

export interface SanctionedEntry {
  /** The entry's number in its list (OFAC ent_num). */
  entryId: string;
  /** As published (OFAC individuals: "SURNAME, Given Names"). */
  name: string;
  kind: SanctionedKind;
  /** Sanctions programs ("SDGT", "IRAN" ...). */
  programs: string[];
  aliases: SanctionedAlias[];
  /** "YYYY-MM-DD", "YYYY-MM", "YYYY" or a year range "YYYY/YYYY", as precise as published. */
  datesOfBirth: string[];
  /** ISO 3166-1 alpha-3 codes: nationality and citizenship. */
  nationalities: string[];
  /** ISO 3166-1 alpha-3 codes of the addresses. */
  countries: string[];
  remarks: string | null;
}

/** One parsed publication of a list, ready to be stored as a list version. */
export interface ParsedList {
  /** The list's key ("ofac-sdn"). */
  list: string;
  entries: SanctionedEntry[];
}

/** One list format: which files a publication has and how to read them. */
export interface ListFormat {
  list: string;
  /** File names of one publication, in the order parse() takes them. */
  files: readonly string[];
  parse(files: Record<string, Buffer>): ParsedList;
}
