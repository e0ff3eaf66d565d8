import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { and, desc, eq } from "drizzle-orm";
import type { Db, Executor } from "@/db";
import { newId } from "@/db/ids";
import { sanctionsAliases, sanctionsEntries, sanctionsListVersions } from "@/db/schema";
import { fetchDocument } from "@/lib/platform/fetch-document";
import { effectsOf, inUnit } from "@/lib/platform/unit-of-work";
import type { ListFormat } from "./entity";
import { LIST_FORMATS } from "./sources";

/**
 * Sanctions (and PEP) list versions in the database: a publication (files or URLs) is read outside any
 * transaction, then stored in one as a new version keyed by its content hash (the same files twice
 * are one version), and a new version starts the rescreening of every active subject.
 */
export interface Publication {
  format: ListFormat;
  files: Record<string, Buffer>;
  source: string;
  contentHash: string;
}

export interface ImportReport {
  list: string;
  versionId: string;
  created: boolean;
  entryCount: number;
  aliasCount: number;
  /** Entries by kind (individual, entity, vessel, aircraft), for a publication parsed by this import. */
  kinds?: Record<string, number>;
}

/**
 * The copy of a list shipped in data/sanctions/<list> (loaded once into a fresh database), or for
 * the PEP list the made-up fixture in data/pep/<list> (sandbox only: production names its source).
 */
export function shippedSources(list: string): string[] {
  const format = LIST_FORMATS[list];
  const dir = path.join(process.cwd(), "data", format.purpose === "pep" ? "pep" : "sanctions", list);
  return format.files.map((f) => path.join(dir, f));
}

/** Published list files are a few megabytes (the UN and EU consolidated lists tens): far below this. */
const MAX_LIST_FILE_BYTES = 200 * 1024 * 1024;

async function readSource(source: string, signal?: AbortSignal): Promise<Buffer> {
  if (/^https?:\/\//i.test(source)) {
    return fetchDocument(source, { maxBytes: MAX_LIST_FILE_BYTES, signal });
  }
  return readFile(source);
}

/** Reads the files of one publication (network or disk: never inside a transaction). */
export async function readPublication(sources: string[], signal?: AbortSignal): Promise<Publication> {
  const byName = new Map(sources.map((s) => [path.posix.basename(new URL(s, "file:///").pathname).toLowerCase(), s]));
  const format = Object.values(LIST_FORMATS).find((f) => f.files.every((name) => byName.has(name)));
  if (!format) {
    const known = Object.values(LIST_FORMATS).map((f) => `${f.list}: ${f.files.join(", ")}`);
    throw new Error(`No list format has all of these files (${[...byName.keys()].join(", ")}); formats: ${known.join("; ")}`);
  }
  const files: Record<string, Buffer> = {};
  const hash = createHash("sha256");
  for (const name of format.files) {
    files[name] = await readSource(byName.get(name)!, signal);
    hash.update(`${name}\0${files[name].length}\0`).update(files[name]);
  }
  return { format, files, source: format.files.map((n) => byName.get(n)).join(","), contentHash: hash.digest("hex") };
}

/** The newest version of a list, or undefined before the first import. */
export async function currentVersion(db: Executor, list: string) {
  const [row] = await db
    .select()
    .from(sanctionsListVersions)
    .where(eq(sanctionsListVersions.list, list))
    .orderBy(desc(sanctionsListVersions.createdAt))
    .limit(1);
  return row;
}

const CHUNK = 500;

/** Stores a publication as a new list version in one transaction (a no-op when its hash is known). */
export async function storePublication(db: Db, pub: Publication, now: Date): Promise<ImportReport> {
  const list = pub.format.list;
  const known = async (ex: Executor) =>
    (
      await ex
        .select()
        .from(sanctionsListVersions)
        .where(and(eq(sanctionsListVersions.list, list), eq(sanctionsListVersions.contentHash, pub.contentHash)))
    )[0];
  const existing = await known(db);
  if (existing) return { list, versionId: existing.id, created: false, entryCount: existing.entryCount, aliasCount: existing.aliasCount };
  // Parsing takes seconds: before the transaction, and only for a publication not stored yet.
  const parsed = pub.format.parse(pub.files);
  const aliasCount = parsed.entries.reduce((n, e) => n + e.aliases.length, 0);
  return inUnit(
    async ({ tx }) => {
      const versionId = newId("slv");
      const [inserted] = await tx
        .insert(sanctionsListVersions)
        .values({ id: versionId, list, contentHash: pub.contentHash, source: pub.source, entryCount: parsed.entries.length, aliasCount, createdAt: now })
        .onConflictDoNothing()
        .returning();
      if (!inserted) {
        // Another process stored the same publication meanwhile.
        const other = (await known(tx))!;
        return { list, versionId: other.id, created: false, entryCount: other.entryCount, aliasCount: other.aliasCount };
      }
      for (let i = 0; i < parsed.entries.length; i += CHUNK) {
        const chunk = parsed.entries.slice(i, i + CHUNK);
        await tx.insert(sanctionsEntries).values(
          chunk.map((e) => ({
            versionId,
            entryId: e.entryId,
            reference: e.reference,
            name: e.name,
            kind: e.kind,
            programs: e.programs,
            datesOfBirth: e.datesOfBirth,
            nationalities: e.nationalities,
            countries: e.countries,
            remarks: e.remarks,
          })),
        );
      }
      const aliases = parsed.entries.flatMap((e) =>
        e.aliases.map((a) => ({ versionId, entryId: e.entryId, aliasId: a.aliasId, aliasType: a.aliasType, name: a.name, quality: a.quality })),
      );
      for (let i = 0; i < aliases.length; i += CHUNK * 2) await tx.insert(sanctionsAliases).values(aliases.slice(i, i + CHUNK * 2));
      // A new version rescreens every active subject (lib/compliance/screening/rescreen-job.ts), in batches: a
      // PEP list's, the customers against the PEP lists only.
      for (const subjectType of pub.format.purpose === "pep" ? (["pep"] as const) : (["customer", "beneficiary"] as const)) {
        await effectsOf(tx).jobs.schedule(
          "sanctions.rescreen",
          { listVersionId: versionId, subjectType, afterId: null },
          { runAt: now, dedupeKey: `sanctions.rescreen:${versionId}:${subjectType}:start` },
        );
      }
      const kinds: Record<string, number> = {};
      for (const e of parsed.entries) kinds[e.kind] = (kinds[e.kind] ?? 0) + 1;
      return { list, versionId, created: true, entryCount: parsed.entries.length, aliasCount, kinds };
    },
    { db, now },
  );
}

/** Reads, then stores, one publication: the import script and the refresh job. */
export async function importPublication(db: Db, sources: string[], now: Date, signal?: AbortSignal): Promise<ImportReport> {
  return storePublication(db, await readPublication(sources, signal), now);
}
