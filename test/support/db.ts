import type { Db } from "@/db";
import { newSubscription, type Owner } from "./fixtures";
import { freshPgliteDir } from "./pglite-template";

/**
 * A fresh, migrated database for database-level unit tests: PGlite in a temp directory (a copy of
 * a migrated template, ./pglite-template.ts), or the PostgreSQL database named by TEST_DB_URL
 * (scripts/test.mjs creates a fresh one per run).
 * Must be called before anything reads the configuration.
 */
export async function freshDb(opts: { ownDatabase?: boolean } = {}) {
  let dropOwn: (() => Promise<void>) | undefined;
  if (process.env.TEST_DB_URL) {
    process.env.DATABASE_URL = opts.ownDatabase ? await ownPostgresDatabase(process.env.TEST_DB_URL, (drop) => (dropOwn = drop)) : process.env.TEST_DB_URL;
  } else process.env.PGLITE_DIR = freshPgliteDir();
  process.env.LOG_LEVEL ??= "silent";
  const { getDb, closeDb } = await import("@/db");
  const { ready } = await import("@/lib/platform/ready");
  (await import("@/lib/operations/runtime/start-steps")).installStartSteps();
  const db = await ready();
  const close = async () => {
    await closeDb();
    await dropOwn?.();
  };
  return { db, getDb, close };
}

/** A fresh database and one partner's customer with its subscription: most database test files' set-up. */
export async function freshDbWithOwner(): Promise<{ db: Db; close: () => Promise<void>; owner: Owner }> {
  const { db, close } = await freshDb();
  return { db, close, owner: await newSubscription(db) };
}

/**
 * On PostgreSQL the run's database is shared by every database test file; a file whose assertions
 * read a whole table (the books' trial balance reads every ledger line) asks for a database of its
 * own (`freshDb({ ownDatabase: true })`): created beside the run's, migrated by ready(), dropped on close.
 */
async function ownPostgresDatabase(runUrl: string, onDrop: (drop: () => Promise<void>) => void): Promise<string> {
  const { default: postgres } = await import("postgres");
  const url = new URL(runUrl);
  const name = `${url.pathname.slice(1)}_own_${process.pid}`;
  const admin = postgres(runUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists "${name}"`);
  await admin.unsafe(`create database "${name}"`);
  onDrop(async () => {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
  });
  url.pathname = `/${name}`;
  return url.toString();
}

/** A drizzle connection of its own to the PostgreSQL database at `url` (as db/index.ts opens one: no schema attached). */
export async function connectPostgres(url: string): Promise<{ db: Db; close: () => Promise<void> }> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const client = postgres(url, { max: 4, onnotice: () => {} });
  return { db: drizzle({ client }) as unknown as Db, close: () => client.end() };
}

/**
 * A second worker's database for race tests: its own connection pool on PostgreSQL; on PGlite
 * (one connection) the same database, and closing it does nothing.
 */
export async function secondConnection(db: Db): Promise<{ db: Db; close: () => Promise<void> }> {
  // DATABASE_URL is the run's database or, with `ownDatabase`, the file's own (set by freshDb).
  return process.env.TEST_DB_URL ? connectPostgres(process.env.DATABASE_URL!) : { db, close: async () => {} };
}

/**
 * A fresh database and a second node's connection to it (see secondConnection), for the tests
 * where two workers race; close() closes both, the second first.
 */
export async function freshDbPair(opts: { ownDatabase?: boolean } = {}): Promise<{ db: Db; db2: Db; close: () => Promise<void> }> {
  const first = await freshDb(opts);
  const second = await secondConnection(first.db);
  return {
    db: first.db,
    db2: second.db,
    close: async () => {
      await second.close();
      await first.close();
    },
  };
}
