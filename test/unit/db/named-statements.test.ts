/**
 * Every statement Drizzle sends through postgres.js is a named prepared statement
 * (db/named-statements.ts): one round trip instead of two for a statement with parameters. The
 * wrapper is checked on a stand-in client, and the statement a transaction ran is found in the
 * connection's pg_prepared_statements (an unnamed one never is; PGlite's own client names its too).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { eq, sql } from "drizzle-orm";
import type { Sql } from "postgres";
import type { Db } from "@/db";
import { namingEveryStatement } from "@/db/named-statements";
import { partners } from "@/db/schema";
import { freshDb } from "../../support/db";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, close } = await freshDb());
});

after(() => close());

/** A stand-in for a postgres.js client: records each unsafe call's options; begin and savepoint open an inner one. */
function standIn(seen: object[]): Sql {
  const client = {
    unsafe: (_query: string, _parameters: unknown[], options: object) => seen.push(options),
    begin: (work: (inner: Sql) => unknown) => work(standIn(seen)),
    savepoint: (work: (inner: Sql) => unknown) => work(standIn(seen)),
    options: { parsers: {} },
  };
  return client as unknown as Sql;
}

describe("named statements", () => {
  it("asks postgres.js to prepare every statement, in transactions and savepoints too", async () => {
    const seen: object[] = [];
    const client = namingEveryStatement(standIn(seen));
    client.unsafe("select $1", [1], { prepare: false });
    await client.begin(async (tx) => {
      tx.unsafe("select $1", [2], { prepare: false });
      await (tx as unknown as { savepoint: (w: (inner: Sql) => unknown) => Promise<unknown> }).savepoint((inner) => inner.unsafe("select $1", [3]));
    });
    assert.deepEqual(seen, [{ prepare: true }, { prepare: true }, { prepare: true }]);
    assert.deepEqual(client.options, { parsers: {} }, "other properties pass through");
  });

  it("leaves a statement the transaction ran prepared on its connection", async () => {
    const marker = `named_statement_probe_${Date.now()}`;
    const prepared = await db.transaction(async (tx) => {
      await tx.select({ id: partners.id }).from(partners).where(eq(partners.id, marker));
      return tx.execute(sql`select count(*)::int as n from pg_prepared_statements where statement like ${`%"partners"%`} and not from_sql`);
    });
    const n = (Array.isArray(prepared) ? prepared : (prepared as { rows: { n: number }[] }).rows)[0].n;
    // PGlite keeps its statements by name too (db/pglite-client.ts, its own test file).
    assert.ok(n >= 1, "the select on partners is a named prepared statement");
  });
});
