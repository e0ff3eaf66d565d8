import type { ListFormat } from "@/lib/screening/entity";
import { ofacConsolidated, ofacSdn } from "./ofac-sdn";
import { unConsolidated } from "./un-consolidated";

/** Every list format the importer reads, by list key. */
export const LIST_FORMATS: Readonly<Record<string, ListFormat>> = {
  [ofacSdn.list]: ofacSdn,
  [ofacConsolidated.list]: ofacConsolidated,
  [unConsolidated.list]: unConsolidated,
};

/** The lists screened, in the order evidence names them. */
export const LISTS = Object.keys(LIST_FORMATS);
