import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/db";
import { sanctionsAliases, sanctionsEntries } from "@/db/schema";
import { buildIndex, type IndexEntry, type MatchIndex } from "./match-index";
import { currentVersion } from "./list-store";

/**
 * The match index of a list's newest version, built once per version and process (about 0.9 s for
 * the OFAC SDN list's 4,620 individuals and their aliases; the provider warms the process's first
 * indexes up, warmUp)
 * and kept until a newer version appears.
 */
const KEY = Symbol.for("remit.screening.indexes");
type G = typeof globalThis & { [KEY]?: Map<string, Promise<MatchIndex>> };

async function load(db: Executor, list: string, versionId: string): Promise<MatchIndex> {
  // People are matched against people only: entities, vessels and aircraft are not indexed.
  // Only what matching and evidence read: the index lives as long as the process, and the other
  // columns (remarks, countries) took 1.8 of its 8.9 MB.
  const entries = await db
    .select({
      entryId: sanctionsEntries.entryId,
      reference: sanctionsEntries.reference,
      name: sanctionsEntries.name,
      programs: sanctionsEntries.programs,
      datesOfBirth: sanctionsEntries.datesOfBirth,
      nationalities: sanctionsEntries.nationalities,
    })
    .from(sanctionsEntries)
    .where(and(eq(sanctionsEntries.versionId, versionId), eq(sanctionsEntries.kind, "individual")));
  const byId = new Map<string, IndexEntry>(entries.map((e) => [e.entryId, { ...e, aliases: [] }]));
  const aliases = await db
    .select({ entryId: sanctionsAliases.entryId, name: sanctionsAliases.name, quality: sanctionsAliases.quality })
    .from(sanctionsAliases)
    .where(and(eq(sanctionsAliases.versionId, versionId), inArray(sanctionsAliases.entryId, [...byId.keys()])));
  for (const a of aliases) byId.get(a.entryId)?.aliases.push({ name: a.name, quality: a.quality });
  return buildIndex(list, versionId, [...byId.values()]);
}

/** The newest version's index, or null when the list was never imported. */
export async function listIndex(db: Executor, list: string): Promise<MatchIndex | null> {
  const version = await currentVersion(db, list);
  if (!version) return null;
  const g = globalThis as G;
  const cache = (g[KEY] ??= new Map());
  let index = cache.get(list);
  if (index && (await index).versionId === version.id) return index;
  index = load(db, list, version.id);
  cache.set(list, index);
  index.catch(() => cache.delete(list));
  return index;
}
