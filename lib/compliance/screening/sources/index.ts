import type { ListFormat } from "@/lib/compliance/screening/entity";
import { ofacConsolidated, ofacSdn } from "./ofac-sdn";
import { opensanctionsPeps } from "./opensanctions";
import { unConsolidated } from "./un-consolidated";

/** Every list format the importer reads, by list key: the sanctions lists and the PEP list. */
export const LIST_FORMATS: Readonly<Record<string, ListFormat>> = {
  [ofacSdn.list]: ofacSdn,
  [ofacConsolidated.list]: ofacConsolidated,
  [unConsolidated.list]: unConsolidated,
  [opensanctionsPeps.list]: opensanctionsPeps,
};

/** The sanctions lists screened, in the order evidence names them. */
export const LISTS = Object.values(LIST_FORMATS)
  .filter((f) => (f.purpose ?? "sanctions") === "sanctions")
  .map((f) => f.list);

/** The PEP lists (lib/compliance/screening/pep.ts). */
export const PEP_LISTS = Object.values(LIST_FORMATS)
  .filter((f) => f.purpose === "pep")
  .map((f) => f.list);
