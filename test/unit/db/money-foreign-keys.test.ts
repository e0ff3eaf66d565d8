/**
 * Foreign keys on the money tables, on PGlite or PostgreSQL (TEST_DB_URL):
 * a row naming a missing parent is refused; and migration 0017 first checks the rows written
 * before it, stopping with the list of orphans (and adding no key) rather than failing on the
 * first constraint.
 */
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db";
import { newId } from "@/db/ids";
import { fundingSessions, journalLines, transferStateHistory } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { freshDb } from "../../support/db";

const MIGRATIONS = path.join(process.cwd(), "db", "migrations");
const FK_MIGRATION = "0017_money_foreign_keys";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, close } = await freshDb());
});
after(async () => close());

/** PostgreSQL's foreign_key_violation, wherever the driver or drizzle puts it. */
function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e.code === "23503" || e.cause?.code === "23503";
}

test("a transfer's history row, funding session or journal line naming a missing parent is refused", async () => {
  const now = clock.now();
  await assert.rejects(
    db.insert(transferStateHistory).values({ id: newId("tsh"), transferId: "trf_missing", seq: 1, state: "registered", reasonCode: "x", transitionedAt: now }),
    isForeignKeyViolation,
  );
  await assert.rejects(
    db.insert(fundingSessions).values({ id: newId("fs"), transferId: "trf_missing", state: "OPEN", expiresAt: now, createdAt: now }),
    isForeignKeyViolation,
  );
  await assert.rejects(
    db.insert(journalLines).values({ id: newId("jl"), entryId: "je_missing", lineNo: 1, accountId: "la_missing", debitMinor: 1n, creditMinor: 0n }),
    isForeignKeyViolation,
  );
});

/** A copy of db/migrations whose journal stops before the foreign keys migration. */
function migrationsBeforeForeignKeys(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "remit-migrations-"));
  cpSync(MIGRATIONS, dir, { recursive: true });
  const journalFile = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === FK_MIGRATION);
  assert.ok(at > 0, `${FK_MIGRATION} is in the journal`);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

/** A second, empty database of the same kind as the suite's, with a migrate(folder) of its own. */
async function emptyDatabase(): Promise<{ db: Db; migrate: (folder: string) => Promise<void>; drop: () => Promise<void> }> {
  const url = process.env.TEST_DB_URL;
  if (url) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    const name = `remit_fkcheck_${process.pid}_${Date.now()}`;
    await admin.unsafe(`create database ${name}`);
    const own = new URL(url);
    own.pathname = `/${name}`;
    const client = postgres(own.toString(), { max: 1, onnotice: () => {} });
    const d = drizzle({ client });
    return {
      db: d as unknown as Db,
      migrate: (folder) => migrate(d, { migrationsFolder: folder }),
      drop: async () => {
        await client.end();
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const client = await PGlite.create();
  const d = drizzle({ client });
  return { db: d as unknown as Db, migrate: (folder) => migrate(d, { migrationsFolder: folder }), drop: () => client.close() };
}

/** The database's own message of a migration failure (drizzle wraps it with the failed query's text). */
function messageOf(err: unknown): string {
  const e = err as { message?: string; cause?: { message?: string } };
  return e.cause?.message ?? e.message ?? "";
}

test("migration 0017 lists the orphans it finds and adds no key; once they are repaired it applies", async () => {
  const older = migrationsBeforeForeignKeys();
  const other = await emptyDatabase();
  try {
    await other.migrate(older);
    await other.db.execute(sql`
      insert into funding_sessions (id, transfer_id, state, expires_at, created_at) values
        ('fs_orphan_a', 'trf_gone_1', 'OPEN', now(), now()),
        ('fs_orphan_b', 'trf_gone_2', 'OPEN', now(), now())`);
    await other.db.execute(sql`
      insert into bank_credits (id, bank_reference, amount, currency, statement_id, state, transfer_id, created_at)
      values ('bc_orphan', 'ref-1', '10.00', 'EUR', 'stmt-1', 'APPLIED', 'trf_gone_3', now())`);

    let message = "";
    await assert.rejects(other.migrate(MIGRATIONS), (err) => {
      message = messageOf(err);
      return true;
    });
    assert.match(message, /migration 0017_money_foreign_keys stopped: rows refer to missing parents/);
    assert.match(message, /funding_sessions\.transfer_id \(2 rows without a transfers row\): fs_orphan_a -> trf_gone_1, fs_orphan_b -> trf_gone_2/);
    assert.match(message, /bank_credits\.transfer_id \(1 rows without a transfers row\): bc_orphan -> trf_gone_3/);
    assert.doesNotMatch(message, /journal_lines/, "columns without orphans are not listed");

    const keys = async () => {
      const result = await other.db.execute(
        sql`select count(*)::int as n from pg_constraint where contype = 'f' and conname in ('funding_sessions_transfer_id_transfers_id_fk', 'bank_credits_transfer_id_transfers_id_fk')`,
      );
      return rowsOf<{ n: number }>(result)[0].n;
    };
    assert.equal(await keys(), 0, "no foreign key added while orphans remain");

    await other.db.execute(sql`delete from funding_sessions`);
    await other.db.execute(sql`delete from bank_credits`);
    await other.migrate(MIGRATIONS);
    assert.equal(await keys(), 2, "the keys are added once the orphans are gone");
  } finally {
    await other.drop();
    rmSync(older, { recursive: true, force: true });
  }
});
