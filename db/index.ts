import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { config } from "@/lib/platform/config";
import { namingEveryStatement } from "./named-statements";
import { keepPrepared } from "./prepared";
import { renderOncePerShape } from "./statement-shapes";
import * as schema from "./schema";

export { schema };
export type Schema = typeof schema;
// No relational query API (`db.query.<table>`): nothing uses it, and with the schema attached
// Drizzle builds one query builder per table (67) for every transaction.
export type Db = PgDatabase<PgQueryResultHKT>;
export type Tx = PgTransaction<PgQueryResultHKT, Record<string, never>, ExtractTablesWithRelations<Record<string, never>>>;
/** Anything that runs queries: the database or an open transaction. */
export type Executor = Db | Tx;
/** Runs work as one unit of work (a transaction): how a read that finds a write to do does it. */
export type InTransaction = <T>(work: (tx: Tx) => Promise<T>) => Promise<T>;

const MIGRATIONS = path.join(process.cwd(), "db", "migrations");
// Any constant: serialises migrations when several app nodes and workers start at once.
const MIGRATION_LOCK = 7_270_001;

interface Handle {
  db: Db;
  close: () => Promise<void>;
  driver: "pglite" | "postgres";
}

// PGlite's memory: its WebAssembly heap only grows, and all of PostgreSQL's shared
// buffers end up resident (the default 128 MB, then 32 MB: 56 MB of WebAssembly memory after the
// journey bench; 16 MB: 38). 8 MB (1,024 pages) still holds this service's working set, and a miss
// reads the data directory's file through the operating system's page cache (docs/memory.md).
const PGLITE_CONF = ["shared_buffers=8MB"];

/**
 * A new PGlite directory is initialised (initdb) in a short-lived child process: in-process, the
 * initdb module's memory (about 500 MB) stays resident for the server's whole life.
 */
async function initPglite(dir: string): Promise<void> {
  if (dir.includes("://") || existsSync(path.join(dir, "PG_VERSION"))) return;
  const script = `const { PGlite } = await import("@electric-sql/pglite"); const db = await PGlite.create(process.argv[1], { postgresqlconf: ${JSON.stringify(PGLITE_CONF)} }); await db.close();`;
  await new Promise<void>((resolve) => {
    // On failure the server initialises in-process, as before.
    execFile(process.execPath, ["--input-type=module", "-e", script, dir], { cwd: process.cwd() }, () => resolve());
  });
}

async function openPglite(dir: string): Promise<Handle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const { preparingClient } = await import("./pglite-client");
  await mkdir(path.dirname(path.resolve(dir)), { recursive: true });
  await initPglite(dir);
  const client = await PGlite.create(dir, { postgresqlconf: PGLITE_CONF });
  // Migrations through PGlite's own query (each statement once); the service's queries through
  // one that parses and plans each statement text once (db/pglite-client.ts).
  await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS });
  const db = drizzle({ client: preparingClient(client) as unknown as typeof client });
  return { db: db as unknown as Db, close: () => client.close(), driver: "pglite" };
}

async function openPostgres(url: string, poolSize: number): Promise<Handle> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  // Migrate on one dedicated connection holding an advisory lock, so racing starts apply once.
  const migrator = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await migrator`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migrate(drizzle({ client: migrator }), { migrationsFolder: MIGRATIONS });
    await migrator`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await migrator.end();
  }
  const client = postgres(url, { max: poolSize, onnotice: () => {} });
  const db = drizzle({ client: namingEveryStatement(client) });
  return { db: db as unknown as Db, close: () => client.end(), driver: "postgres" };
}

// One instance per process, kept on globalThis: Next bundles route handlers and instrumentation
// separately, and two PGlite instances on one directory would corrupt it.
const KEY = Symbol.for("remit.db");
type G = typeof globalThis & { [KEY]?: Promise<Handle> };

function handle(): Promise<Handle> {
  const g = globalThis as G;
  if (!g[KEY]) {
    const c = config();
    g[KEY] = (c.DATABASE_URL ? openPostgres(c.DATABASE_URL, c.DATABASE_POOL_SIZE) : openPglite(c.PGLITE_DIR)).then((h) => {
      keepPrepared(h.db);
      // Each statement's text rendered once per shape: a request only binds its values.
      renderOncePerShape(h.db);
      return h;
    });
    g[KEY].catch(() => delete g[KEY]);
  }
  return g[KEY];
}

/** Rows of a raw `execute` result: PGlite answers { rows }, postgres.js an array. */
export function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);
}

/** The process's database, migrated. */
export async function getDb(): Promise<Db> {
  return (await handle()).db;
}

export async function closeDb(): Promise<void> {
  const g = globalThis as G;
  const h = g[KEY];
  delete g[KEY];
  if (h) await (await h).close();
}
