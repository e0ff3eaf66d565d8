import type { ListFormat } from "@/lib/screening/entity";
import { ofacSdn } from "./ofac-sdn";

/** Every list format the importer reads, by list key. The UN and EU lists are added here. */
export const LIST_FORMATS: Readonly<Record<string, ListFormat>> = { [ofacSdn.list]: ofacSdn };
