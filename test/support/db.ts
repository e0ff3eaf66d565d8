import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * A fresh, migrated database for database-level unit tests: PGlite in a temp directory, or the
 * PostgreSQL database named by TEST_DB_URL (scripts/test.mjs creates a fresh one per run).
 * Must be called before anything reads the configuration.
 */
export async function freshDb() {
  if (process.env.TEST_DB_URL) process.env.DATABASE_URL = process.env.TEST_DB_URL;
  else process.env.PGLITE_DIR = mkdtempSync(path.join(tmpdir(), "remit-unit-"));
  process.env.LOG_LEVEL ??= "silent";
  const { getDb, closeDb } = await import("@/db");
  const { ready } = await import("@/lib/platform/ready");
  const db = await ready();
  return { db, getDb, close: closeDb };
}
