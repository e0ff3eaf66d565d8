/**
 * db/pglite-client.ts: PGlite's queries with each statement text parsed once. Answers
 * exactly as PGlite's own query does; PostgreSQL re-plans a kept statement after DDL; errors,
 * rollbacks and the cache's bound leave every statement usable; the locks keep a query outside a
 * transaction out of it; and db/index.ts serves through it. Its own decoder of PostgreSQL's answer
 * gives every type, error and notice as PGlite's does, whatever the size of the answer. PGlite-specific, so on PGlite whatever
 * TEST_DB_URL says (a copy of the migrated test template).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { PGlite, types, type QueryOptions } from "@electric-sql/pglite";
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { preparingClient } from "@/db/pglite-client";
import { partners } from "@/db/schema";
import { freshPgliteDir } from "../../support/pglite-template";

let pg: PGlite;
before(async () => {
  pg = await PGlite.create(freshPgliteDir());
  await pg.exec(`create table kept (id uuid primary key, name text not null, amount numeric(20,6), at timestamptz, tags text[], doc jsonb)`);
});
after(() => pg.close());

/** Statements PostgreSQL holds for this session under a name (the client's; PGlite's own are unnamed). */
async function named(): Promise<string[]> {
  const { rows } = await pg.query<{ name: string }>(`select name from pg_prepared_statements order by name`);
  return rows.map((r) => r.name);
}

// How drizzle-orm/pglite asks: rows as arrays, dates and numerics left as text.
const drizzleArrays: QueryOptions = { rowMode: "array", parsers: { [types.TIMESTAMPTZ]: (v: string) => v } };

describe("answers", () => {
  it("the same rows, fields and counts as PGlite's own query, in both row modes, typed parameters included", async () => {
    const client = preparingClient(pg);
    const id = "0b6c7f1e-2f39-4d0c-9a53-5c7b1f0e9a11";
    const insert = `insert into kept (id, name, amount, at, tags, doc) values ($1, $2, $3, $4, $5, $6) returning id`;
    const params = [id, "Lucía", "12.500000", new Date("2026-01-02T03:04:05.678Z"), ["a", "b,c"], { k: [1, "x"] }];
    const inserted = await client.query(insert, params);
    assert.equal(inserted.affectedRows, 1);
    const select = `select id, name, amount, at, tags, doc, null::text as nothing from kept where id = $1 and name = $2`;
    for (const options of [undefined, drizzleArrays]) {
      const ours = await client.query(select, [id, "Lucía"], options);
      const theirs = await pg.query(select, [id, "Lucía"], options);
      assert.deepEqual(ours.rows, theirs.rows);
      assert.deepEqual(ours.fields, theirs.fields);
      assert.equal(ours.affectedRows, theirs.affectedRows);
    }
    const [row] = (await client.query<{ amount: string; tags: string[]; doc: unknown }>(select, [id, "Lucía"])).rows;
    assert.deepEqual([row.amount, row.tags, row.doc], ["12.500000", ["a", "b,c"], { k: [1, "x"] }]);
    const updated = await client.query(`update kept set name = $1 where id = $2`, ["Luc", id]);
    assert.equal(updated.affectedRows, 1);
    assert.deepEqual(updated.rows, []);
  });

  it("parses a statement text once: its runs bind and execute the one named statement", async () => {
    const client = preparingClient(pg);
    const before = (await named()).length;
    const text = `select count(*)::int as n from kept where name <> $1`;
    for (let i = 0; i < 7; i++) assert.equal((await client.query<{ n: number }>(text, [`x${i}`])).rows[0].n, 1);
    assert.equal(client.statements(), 1);
    assert.equal((await named()).length, before + 1);
  });
});

describe("decoded as PGlite decodes", () => {
  // One value of each type the service reads, and a null of each: dates, numerics as strings, json,
  // bytea, arrays, multi-byte text.
  const everyType = `select $1::bool as b, 7::int2 as i2, 2147483647::int4 as i4, $2::int8 as small8, 9007199254740993::int8 as big8,
      1.5::float8 as f8, $3::numeric(20,6) as amount, 'Lucía 😀 \\ "q"'::text as t, 'x'::varchar as v, 'ab'::char(3) as c,
      '\\x00ff10'::bytea as raw, '2026-01-02'::date as d, '2026-01-02 03:04:05.678'::timestamp as ts,
      $4::timestamptz as tstz, '1 day 02:00'::interval as iv, '{"k":[1,"x"]}'::json as j, $5::jsonb as jb,
      '0b6c7f1e-2f39-4d0c-9a53-5c7b1f0e9a11'::uuid as id, array['a', 'b,c', null, 'd"e']::text[] as tags,
      array[1, 2]::int4[] as ints, array[1.50, 2]::numeric[] as amounts, array['2026-01-02T03:04:05Z']::timestamptz[] as times,
      null::text as n_text, null::int4 as n_int, null::numeric as n_num, null::jsonb as n_json, null::bytea as n_raw,
      null::timestamptz as n_tstz, null::text[] as n_tags`;
  const at = new Date("2026-01-02T03:04:05.678Z");
  const params = [true, 42, "12.500000", at, { a: { b: [null, true] } }];

  it("every type and null, in both row modes, PGlite's parsers and Drizzle's", async () => {
    const client = preparingClient(pg);
    const drizzleObjects: QueryOptions = { ...drizzleArrays, rowMode: "object" };
    for (const options of [undefined, drizzleArrays, drizzleObjects]) {
      for (let run = 0; run < 2; run++) {
        const ours = await client.query(everyType, params, options);
        const theirs = await pg.query(everyType, params, options);
        assert.deepEqual(ours.rows, theirs.rows);
        assert.deepEqual(ours.fields, theirs.fields);
        assert.equal(ours.rowCount, 1);
      }
    }
    const [row] = (await client.query<Record<string, unknown>>(everyType, params)).rows;
    assert.equal(row.amount, "12.500000", "a numeric is its text, never a float");
    assert.deepEqual(row.raw, new Uint8Array([0, 255, 16]));
    assert.ok(row.tstz instanceof Date && row.tstz.getTime() === at.getTime());
    assert.equal(row.big8, 9007199254740993n);
    assert.equal(row.small8, 42);
    assert.equal(row.t, 'Lucía 😀 \\ "q"');
    assert.deepEqual(row.tags, ["a", "b,c", null, 'd"e']);
    assert.deepEqual(row.jb, { a: { b: [null, true] } });
    assert.equal(row.n_text, null);
    assert.equal(row.n_tags, null);
    const [asDrizzle] = (await client.query<unknown[]>(everyType, params, drizzleArrays)).rows;
    assert.equal(typeof asDrizzle[13], "string", "Drizzle's own parser wins: a timestamptz left as text");
  });

  it("an answer larger than PostgreSQL's output buffer, its messages cut across chunks", async () => {
    const client = preparingClient(pg);
    const text = `select g, repeat('é', g % 97) as s, g::numeric / 7 as q from generate_series(1, $1::int) g`;
    const ours = await client.query<{ g: number; s: string }>(text, [20000]);
    const theirs = await pg.query(text, [20000]);
    assert.equal(ours.rows.length, 20000);
    assert.deepEqual(ours.rows, theirs.rows);
    assert.equal(ours.rows[19999].s, "é".repeat(20000 % 97));
  });

  it("an error reads as PGlite's own: message, code, constraint, detail, table", async () => {
    const client = preparingClient(pg);
    const id = "9a1c2d3e-4f50-4a6b-8c7d-0e1f2a3b4c5d";
    await client.query(`insert into kept (id, name) values ($1, $2)`, [id, "once"]);
    const insert = `insert into kept (id, name) values ($1, $2)`;
    const ours = await client.query(insert, [id, "twice"]).catch((e: Record<string, unknown>) => e);
    const theirs = await pg.query(insert, [id, "twice"]).catch((e: Record<string, unknown>) => e);
    const fields = ["name", "message", "severity", "code", "detail", "constraint", "table", "schema"];
    assert.deepEqual(
      Object.fromEntries(fields.map((f) => [f, (ours as Record<string, unknown>)[f]])),
      Object.fromEntries(fields.map((f) => [f, (theirs as Record<string, unknown>)[f]])),
    );
    assert.equal((ours as { code?: string }).code, "23505");
    assert.equal((await client.query(`select name from kept where id = $1`, [id])).rows.length, 1, "the next run reads");
  });

  it("a notice reaches the caller's onNotice; a write's count is its affected rows", async () => {
    const client = preparingClient(pg);
    const notices: string[] = [];
    await pg.exec(`create or replace function noisy(n int) returns int language plpgsql as $$ begin raise notice 'saw %', n; return n; end $$`);
    const r = await client.query<{ n: number }>(`select noisy($1) as n`, [3], { onNotice: (m) => notices.push(m.message ?? "") });
    assert.deepEqual(r.rows, [{ n: 3 }]);
    assert.deepEqual(notices, ["saw 3"]);
    const deleted = await client.query(`delete from kept where name = $1`, ["nobody"]);
    assert.deepEqual([deleted.affectedRows, deleted.rowCount, deleted.command], [0, 0, "DELETE"]);
  });

  it("a column renamed under a kept statement: the rows carry the new name", async () => {
    const client = preparingClient(pg);
    await pg.exec(`create table renamed (a int); insert into renamed values (1)`);
    const text = `select * from renamed where $1::int > 0`;
    assert.deepEqual((await client.query(text, [1])).rows, [{ a: 1 }]);
    await pg.exec(`alter table renamed rename column a to b`);
    // PostgreSQL refuses the kept statement once (0A000: its result columns changed), as for a new column.
    await assert.rejects(client.query(text, [1]), (e: { code?: string }) => e.code === "0A000");
    assert.deepEqual((await client.query(text, [1])).rows, [{ b: 1 }]);
  });
});

describe("kept statements stay true", () => {
  it("a table dropped and made again under the same name: the kept statement reads the new one", async () => {
    const client = preparingClient(pg);
    await pg.exec(`create table remade (n int)`);
    await pg.exec(`insert into remade values (1)`);
    const text = `select n from remade order by n`;
    assert.deepEqual((await client.query(text)).rows, [{ n: 1 }]);
    await pg.exec(`drop table remade; create table remade (n int); insert into remade values (2), (3)`);
    assert.deepEqual((await client.query(text)).rows, [{ n: 2 }, { n: 3 }]);
    assert.equal(client.statements(), 1);
  });

  it("a select * whose columns changed fails once (PostgreSQL's 0A000), then runs parsed afresh", async () => {
    const client = preparingClient(pg);
    await pg.exec(`create table widened (n int); insert into widened values (1)`);
    const text = `select * from widened`;
    assert.deepEqual((await client.query(text)).rows, [{ n: 1 }]);
    await pg.exec(`alter table widened add column m int default 7`);
    await assert.rejects(client.query(text), (e: { code?: string; query?: string }) => e.code === "0A000" && e.query === text);
    assert.deepEqual((await client.query(text)).rows, [{ n: 1, m: 7 }]);
  });

  it("errors carry PostgreSQL's code and the statement; a rolled-back transaction keeps the statements it prepared", async () => {
    const client = preparingClient(pg);
    const id = "5d0a8e7b-1c44-4f0e-8a0e-3f0b7c1d2e33";
    const insert = `insert into kept (id, name) values ($1, $2)`;
    await assert.rejects(
      client.transaction(async (tx) => {
        await tx.query(insert, [id, "first"]);
        await tx.query(insert, [id, "again"]);
      }),
      (e: { code?: string; query?: string }) => e.code === "23505" && e.query === insert,
    );
    assert.equal((await client.query(`select 1 from kept where id = $1`, [id])).rows.length, 0, "rolled back");
    await assert.rejects(client.query(`select nothing from kept where id = $1`, [id]), (e: { code?: string }) => e.code === "42703");
    assert.equal(client.statements(), 2, "the failing text is not kept");
    await client.query(insert, [id, "now"]);
    assert.deepEqual((await client.query(`select name from kept where id = $1`, [id])).rows, [{ name: "now" }]);
  });

  it("keeps at most its capacity, closing the coldest statement in PostgreSQL too", async () => {
    const before = await named();
    const client = preparingClient(pg, 2);
    const texts = [1, 2, 3].map((n) => `select ${n}::int as n where $1::int > 0`);
    for (const t of texts) await client.query(t, [1]);
    assert.equal(client.statements(), 2);
    assert.equal((await named()).length, before.length + 2);
    for (const t of texts) assert.equal((await client.query<{ n: number }>(t, [1])).rows.length, 1);
    assert.equal((await named()).length, before.length + 2);
  });
});

describe("locks", () => {
  it("a query outside a transaction waits for it: it never runs inside another's transaction", async () => {
    const client = preparingClient(pg);
    await pg.exec(`create table counted (n int)`);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let inserted!: () => void;
    const afterInsert = new Promise<void>((r) => (inserted = r));
    const tx = client.transaction(async (t) => {
      await t.query(`insert into counted values ($1)`, [1]);
      inserted();
      await held;
      await t.query(`insert into counted values ($1)`, [2]);
    });
    await afterInsert;
    const outside = client.query<{ n: number }>(`select count(*)::int as n from counted`);
    const settled = await Promise.race([outside.then(() => "ran"), new Promise((r) => setTimeout(() => r("waiting"), 100))]);
    assert.equal(settled, "waiting");
    release();
    await tx;
    assert.equal((await outside).rows[0].n, 2, "it ran after the commit, seeing both rows");
  });
});

describe("through Drizzle", () => {
  it("reads, writes, a transaction and a savepoint rolled back", async () => {
    const client = preparingClient(pg);
    const db = drizzle({ client: client as unknown as PGlite });
    const row = (id: string): typeof partners.$inferInsert => ({ id, name: id, createdAt: new Date(), updatedAt: new Date() });
    await db.transaction(async (tx) => {
      await tx.insert(partners).values(row("ptr_pgc_1"));
      await tx
        .transaction(async (inner) => {
          await inner.insert(partners).values(row("ptr_pgc_2"));
          throw new Error("roll the savepoint back");
        })
        .catch(() => undefined);
    });
    const found = await db.select({ id: partners.id }).from(partners).where(eq(partners.name, "ptr_pgc_1"));
    assert.deepEqual(found, [{ id: "ptr_pgc_1" }]);
    const gone = await db.execute(sql`select count(*)::int as n from partners where id = ${"ptr_pgc_2"}`);
    assert.deepEqual(gone.rows, [{ n: 0 }]);
  });
});

describe("db/index.ts", () => {
  it("serves PGlite through the preparing client", async () => {
    const saved = { url: process.env.DATABASE_URL, dir: process.env.PGLITE_DIR };
    delete process.env.DATABASE_URL;
    process.env.PGLITE_DIR = freshPgliteDir();
    process.env.LOG_LEVEL ??= "silent";
    const { getDb, closeDb } = await import("@/db");
    try {
      const db = await getDb();
      await db.select({ id: partners.id }).from(partners).limit(1);
      const client = (db as unknown as { $client: { statements?: () => number } }).$client;
      assert.equal(typeof client.statements, "function");
      assert.ok(client.statements!() >= 1);
    } finally {
      await closeDb();
      if (saved.url === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = saved.url;
      process.env.PGLITE_DIR = saved.dir;
    }
  });
});
