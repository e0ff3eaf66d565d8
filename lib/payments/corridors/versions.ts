/**
 * Corridors, their prices and the tier limits as versioned data (docs/decisions.md "Configuration as versioned
 * data"): each version is a whole document (./schema.ts) with an effective time, written once when
 * a second admin approves it (lib/operations/commands/configuration.ts) and never changed. The version in force
 * at an instant is the highest whose effective time has come; a quote records the version it was
 * priced under, and its acceptance checks it against that same version.
 *
 * Every process keeps the versions in memory (they are never changed, so a copy is never wrong,
 * only possibly short of a newer one): quote creation reads the highest version number in a query
 * it makes anyway and loads what it lacks; other readers reload at most every RECHECK_MS. Selecting
 * by effective time in memory means a version takes effect on time without anyone invalidating.
 */
import { asc, gt, sql } from "drizzle-orm";
import { z } from "zod";
import type { Executor, Tx } from "@/db";
import { configurationVersions } from "@/db/schema";
import rawSeed from "@/data/corridors/v2.json";
import { SEED_TIER_LIMITS, type TierLimits } from "@/lib/payments/limits/tiers";
import type { PayoutBank } from "@/lib/platform/config/payout-banks";
import type { AccountRequirement } from "@/lib/payments/payout-identifiers/requirement-schema";
import { deepFreeze } from "./freeze";
import { configurationDocumentSchema, type CalendarChanges, type Corridor, type FundingTerms } from "./schema";

/** One version, parsed: its corridors by code, in the document's order, its tier limits and its funding terms. */
export interface CorridorTable {
  version: number;
  effectiveAt: Date;
  corridors: readonly Corridor[];
  byCode: ReadonlyMap<string, Corridor>;
  tierLimits: TierLimits;
  /** Funding windows and collection accounts; undefined (or a part undefined): the deployment's settings (./funding-terms.ts). */
  funding: FundingTerms | undefined;
  /** Changes to countries' business days beyond the holiday table, by alpha-2 (lib/payments/delivery/business-calendar.ts). */
  calendars: Readonly<Record<string, CalendarChanges>> | undefined;
  /** The payout banks; undefined: the PAYOUT_BANKS setting (lib/payments/payouts/banks.ts). */
  payoutBanks: readonly PayoutBank[] | undefined;
  /** What a payout needs per country, currency and method; undefined: the shipped file's (lib/payments/payout-identifiers/account-requirements.ts). */
  accountRequirements: readonly AccountRequirement[] | undefined;
}

/** A version as stored (the document as proposed: decimal strings, no Decimal instances). */
export interface StoredVersion {
  version: number;
  effectiveAt: Date;
  document: Record<string, unknown>;
}

/** How long a process trusts its copy before asking for newer versions (quote creation asks every time, for free). */
export const RECHECK_MS = 5_000;

/** Seed version 1 is in force from the epoch: before it, nothing was priced by the database. */
const SEED_EFFECTIVE_AT = new Date(0);

/**
 * The shipped corridors (data/corridors/v2.json) and tier limits (SEED_TIER_LIMITS) as a version
 * document: version 1 of a fresh database (migrations 0043 and 0046 write the same).
 */
export function seedDocument(): Record<string, unknown> {
  const { version: _fileLabel, ...document } = rawSeed;
  return { ...document, tierLimits: structuredClone(SEED_TIER_LIMITS) };
}

/** Validates a version document; throws with every problem listed. */
export function parseConfiguration(
  raw: unknown,
): Pick<CorridorTable, "corridors" | "tierLimits" | "funding" | "calendars" | "payoutBanks" | "accountRequirements"> {
  const result = configurationDocumentSchema.safeParse(raw);
  if (!result.success) throw new Error(`Invalid corridor data:\n${z.prettifyError(result.error)}`);
  const { corridors, tierLimits, funding, calendars, payoutBanks, accountRequirements } = result.data;
  return deepFreeze({ corridors, tierLimits, funding, calendars, payoutBanks, accountRequirements });
}

/** A version document's corridors (validating the whole document). */
export function parseDocument(raw: unknown): readonly Corridor[] {
  return parseConfiguration(raw).corridors;
}

function tableOf(row: StoredVersion): CorridorTable {
  const parsed = parseConfiguration(row.document);
  return { version: row.version, effectiveAt: row.effectiveAt, byCode: new Map(parsed.corridors.map((c) => [c.code, c])), ...parsed };
}

// The stored rows are shared by every bundle of the process (Next bundles a module per route); the
// parsed tables, holding this bundle's Decimal instances, are kept per module.
const KEY = Symbol.for("remit.configuration.versions");
interface Shared {
  rows: Map<number, StoredVersion>;
  /** The highest version read from the database (0: none yet, the built-in seed stands in). */
  loaded: number;
  checkedAt: number;
}
type G = typeof globalThis & { [KEY]?: Shared };
const shared = (): Shared =>
  ((globalThis as G)[KEY] ??= {
    rows: new Map([[1, { version: 1, effectiveAt: SEED_EFFECTIVE_AT, document: seedDocument() }]]),
    loaded: 0,
    checkedAt: Number.NEGATIVE_INFINITY,
  });

const parsed = new Map<number, { row: StoredVersion; table: CorridorTable }>();
let ordered: { rows: Map<number, StoredVersion>; size: number; tables: CorridorTable[] } | undefined;

/** Every version known to this process, lowest first. */
function tables(): CorridorTable[] {
  const s = shared();
  if (ordered && ordered.rows === s.rows && ordered.size === s.rows.size) return ordered.tables;
  const list = [...s.rows.values()]
    .sort((a, b) => a.version - b.version)
    .map((row) => {
      const known = parsed.get(row.version);
      if (known && known.row === row) return known.table;
      const table = tableOf(row);
      parsed.set(row.version, { row, table });
      return table;
    });
  ordered = { rows: s.rows, size: s.rows.size, tables: list };
  return list;
}

/** Every version this process holds, oldest first. */
export function knownTables(): readonly CorridorTable[] {
  return tables();
}

/** The version in force at `now`: the highest whose effective time has come. */
export function tableInForce(now: Date): CorridorTable {
  const list = tables();
  const at = now.getTime();
  for (let i = list.length - 1; i > 0; i--) if (list[i].effectiveAt.getTime() <= at) return list[i];
  return list[0];
}

/** A version's document as stored (what a diff compares and an export writes), if this process holds it. */
export function storedVersion(version: number): StoredVersion | undefined {
  return shared().rows.get(version);
}

/** The highest version known (possibly not yet in force). */
export function latestTable(): CorridorTable {
  const list = tables();
  return list[list.length - 1];
}

/**
 * A quote's version: its recorded number, or version 1 for the labels quotes carried before
 * configuration was data ("v1", "v2": the data files version 1 was seeded from). Undefined when
 * this process has not loaded it (`refreshVersions` with it as `latest` first).
 */
export function tableOfVersion(recorded: string): CorridorTable | undefined {
  const version = recordedVersion(recorded);
  return tables().find((t) => t.version === version);
}

/** The version number a quote's recorded label names (see tableOfVersion). */
export const recordedVersion = (recorded: string): number => (/^\d+$/.test(recorded) ? Number(recorded) : 1);

/**
 * Loads the versions this process lacks: when `latest` (the highest number, read by the caller) is
 * above what it holds, or without it when its copy is older than RECHECK_MS.
 */
export async function refreshVersions(db: Executor, latest?: number): Promise<void> {
  const s = shared();
  if (latest !== undefined ? latest <= s.loaded : Date.now() - s.checkedAt < RECHECK_MS) return;
  const rows = await db
    .select({ version: configurationVersions.version, effectiveAt: configurationVersions.effectiveAt, document: configurationVersions.document })
    .from(configurationVersions)
    .where(gt(configurationVersions.version, s.loaded))
    .orderBy(asc(configurationVersions.version));
  s.checkedAt = Date.now();
  if (rows.length === 0) return;
  // A new map: readers holding the old one keep a consistent copy.
  const next = new Map(s.rows);
  for (const row of rows) next.set(row.version, row);
  s.rows = next;
  s.loaded = Math.max(s.loaded, rows[rows.length - 1].version);
}

/**
 * Loads the versions `transfers` were priced under when this process lacks one (no statement
 * otherwise): what a reader of corridorOfTransfer does first.
 */
export async function refreshForTransfers(db: Executor, transfers: readonly { configurationVersion: number | null }[]): Promise<void> {
  const highest = Math.max(0, ...transfers.map((t) => t.configurationVersion ?? 0));
  if (highest > 0) await refreshVersions(db, highest);
}

/** The next read asks the database (after this process approved a version). */
export function markVersionsStale(): void {
  shared().checkedAt = Number.NEGATIVE_INFINITY;
}

/** The highest version number in the database, as a SQL expression (0 on an empty table). */
export const latestVersionSql = () => sql<number>`(select coalesce(max(${configurationVersions.version}), 0) from ${configurationVersions})`.mapWith(Number);

export type VersionRow = typeof configurationVersions.$inferSelect;

/** Every version, newest first (the console's history). */
export async function listVersions(db: Executor): Promise<VersionRow[]> {
  return db
    .select()
    .from(configurationVersions)
    .orderBy(sql`${configurationVersions.version} desc`);
}

export async function versionByNumber(db: Executor, version: number): Promise<VersionRow | undefined> {
  const [row] = await db
    .select()
    .from(configurationVersions)
    .where(sql`${configurationVersions.version} = ${version}`);
  return row;
}

/**
 * Writes a new version (the next number) after a second admin approved it. An effective time
 * already past takes effect at approval: a version never applies to quotes priced before it existed.
 */
export async function insertVersion(
  tx: Tx,
  input: { document: Record<string, unknown>; effectiveAt: Date; note: string; proposedByEmail: string; approvedByEmail: string; proposalId: string | null },
  now: Date,
): Promise<VersionRow> {
  // What an export adds (its number and effective time) is not the document's: the row has its own.
  const { version: _exportedVersion, effectiveAt: _exportedEffectiveAt, ...document } = input.document;
  parseDocument(document);
  // The number: one more than the highest, under a transaction-scoped lock so two approvals never share it.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('configuration_versions.version'))`);
  const [last] = await tx.select({ version: sql<number>`max(${configurationVersions.version})`.mapWith(Number) }).from(configurationVersions);
  const [row] = await tx
    .insert(configurationVersions)
    .values({
      ...input,
      document,
      version: (last?.version ?? 0) + 1,
      effectiveAt: input.effectiveAt.getTime() < now.getTime() ? now : input.effectiveAt,
      createdAt: now,
    })
    .returning();
  markVersionsStale();
  return row;
}

/**
 * A whole version as JSON for another environment: its document with its number and effective
 * time, read back by the same schema (configurationDocumentSchema) when imported there.
 */
export async function exportVersion(db: Executor, version: number): Promise<Record<string, unknown> | undefined> {
  const row = await versionByNumber(db, version);
  if (!row) return undefined;
  const { $comment, ...rest } = row.document;
  return { ...($comment === undefined ? {} : { $comment }), version: row.version, effectiveAt: row.effectiveAt.toISOString(), ...rest };
}

/** The latest version's number and stored document (what a proposed change is built on). */
export async function latestDocument(db: Executor): Promise<{ version: number; document: Record<string, unknown> }> {
  await refreshVersions(db);
  const { version } = latestTable();
  return { version, document: storedVersion(version)?.document ?? seedDocument() };
}
