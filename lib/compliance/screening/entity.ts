/**
 * The one entity model every list maps to (lib/compliance/screening/sources/<format>): OFAC SDN, OFAC
 * consolidated (non-SDN), the UN Security Council Consolidated List, and the OpenSanctions PEP
 * list (a list of politically exposed persons, screened apart: lib/compliance/screening/pep.ts). Stored per list version
 * (db/schema/sanctions.ts) and indexed in memory for matching (lib/compliance/screening/match-index.ts).
 */
export type SanctionedKind = "individual" | "entity" | "vessel" | "aircraft";

export interface SanctionedAlias {
  /** The alias's number in its list (OFAC alt_num). */
  aliasId: string;
  /** aka, fka, nka (OFAC), or the list's own word. */
  aliasType: string;
  name: string;
  /**
   * "low": a weak alias (UN quality "Low", or a name in its original script), matched only
   * exactly, as the UN's own guidance asks; null: a normal alias.
   */
  quality: "low" | null;
}

export interface SanctionedEntry {
  /** The entry's number in its list (OFAC ent_num, UN DATAID). */
  entryId: string;
  /** The reference an operator quotes, when the list has one besides the number (UN "CDi.001"). */
  reference: string | null;
  /** As published (OFAC individuals: "SURNAME, Given Names"). */
  name: string;
  kind: SanctionedKind;
  /** Sanctions programs or regimes ("SDGT", "IRAN" ...; UN: "Al-Qaida", "DRC" ...). */
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
  /** The list's key ("ofac-sdn", "ofac-consolidated", "un-consolidated"). */
  list: string;
  entries: SanctionedEntry[];
}

/** One list format: which files a publication has and how to read them. */
export interface ListFormat {
  list: string;
  /** What the list is screened for: sanctions (the default: a hit blocks) or PEP (a match asks for enhanced due diligence). */
  purpose?: "sanctions" | "pep";
  /** File names of one publication, in the order parse() takes them. */
  files: readonly string[];
  parse(files: Record<string, Buffer>): ParsedList;
}
