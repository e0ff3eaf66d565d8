/**
 * The commit statement's text built once per shape (db/statement-shapes.ts): one text per
 * shape, another for another shape, the kept text with this request's values exactly what Drizzle
 * would have sent, a bounded cache, and rows written with the values bound. PGlite, or PostgreSQL
 * with TEST_DB_URL.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { eq, inArray, sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { auditLog, jobs } from "@/db/schema";
import { shapeOf, ShapeCache, shapes } from "@/db/statement-shapes";
import { writeTogether } from "@/db/write-together";
import { freshDb } from "../../support/db";

let db: Db;
let close: () => Promise<void>;
before(async () => {
  ({ db, close } = await freshDb());
});
after(() => close());

const dialect = new PgDialect();
/** What the drivers send (postgres.js and PGlite read no typings). */
const sent = (q: { sql: string; params: unknown[] }) => ({ sql: q.sql, params: q.params });

/** A job insert as the unit of work writes it: a jsonb payload, timestamps, a nullable key. */
function jobRow(id: string, payload: Record<string, unknown>, dedupeKey: string | null, at: Date) {
  return { id, kind: "test.shape", payload, state: "pending" as const, runAt: at, dedupeKey, maxAttempts: 3, createdAt: at };
}

/** The commit statement's form: named CTEs, then a final select (db/write-together.ts). */
function statement(...writes: { getSQL(): SQL }[]): SQL {
  const ctes = sql.join(
    writes.map((w, i) => sql`${sql.identifier(`w${i}`)} as (${w.getSQL()})`),
    sql`, `,
  );
  return sql`with ${ctes} select ${1} as one`;
}

const at = new Date("2026-03-01T10:00:00.000Z");
const later = new Date("2026-03-02T11:30:00.000Z");

/** An update of n jobs by id: a list of n values, so a shape per n. */
const updateOfN = (n: number) =>
  statement(
    db
      .update(jobs)
      .set({ runAt: at })
      .where(
        inArray(
          jobs.id,
          Array.from({ length: n }, (_, i) => `job_${i}`),
        ),
      ),
  );

describe("statement shapes: the key", () => {
  it("is the same for the same writes with other values, and the values are Drizzle's, in its order", () => {
    const a = statement(
      db
        .insert(jobs)
        .values(jobRow("job_a", { n: 1 }, "k:a", at))
        .onConflictDoNothing(),
      db.update(jobs).set({ runAt: at }).where(eq(jobs.id, "job_a")),
    );
    const b = statement(
      db
        .insert(jobs)
        .values(jobRow("job_b", { n: 2 }, "k:b", later))
        .onConflictDoNothing(),
      db.update(jobs).set({ runAt: later }).where(eq(jobs.id, "job_b")),
    );
    const sa = shapeOf(a)!;
    const sb = shapeOf(b)!;
    assert.equal(sa.key, sb.key);
    assert.deepEqual(sa.params, dialect.sqlToQuery(a).params);
    assert.deepEqual(sb.params, dialect.sqlToQuery(b).params);
    assert.notDeepEqual(sa.params, sb.params);
  });

  it("differs where the text differs: another table, another column set, another row count, a null written as such", () => {
    const base = shapeOf(statement(db.insert(jobs).values(jobRow("job_1", {}, "k", at))))!.key;
    const others = [
      statement(db.insert(jobs).values([jobRow("job_1", {}, "k", at), jobRow("job_2", {}, "k2", at)])),
      statement(
        db
          .insert(jobs)
          .values(jobRow("job_1", {}, "k", at))
          .onConflictDoNothing(),
      ),
      statement(db.insert(jobs).values({ ...jobRow("job_1", {}, "k", at), attempts: 1 })),
      statement(db.insert(jobs).values(jobRow("job_1", {}, sql`null` as unknown as string, at))),
      statement(db.insert(auditLog).values({ id: "aud_1", operatorId: "op", operatorEmail: "op@x", action: "a", targetType: "t", targetId: "1", at })),
      statement(db.insert(jobs).values(jobRow("job_1", {}, "k", at)), db.update(jobs).set({ runAt: at }).where(eq(jobs.id, "job_1"))),
    ];
    const keys = others.map((q) => shapeOf(q)!.key);
    assert.equal(new Set([base, ...keys]).size, keys.length + 1);
    // A list of n values is a text per n.
    const list = (n: number) => shapeOf(updateOfN(n))!.key;
    assert.notEqual(list(2), list(3));
    assert.equal(list(3), list(3));
  });

  it("is left to Drizzle for what the walk does not read (a placeholder, inlined parameters)", () => {
    assert.equal(shapeOf(sql`select ${sql.placeholder("x")}`), undefined);
    assert.equal(shapeOf(sql`select ${"x"}`.inlineParams()), undefined);
  });
});

describe("statement shapes: the cache", () => {
  it("renders a shape once; the kept text with the next request's values is what Drizzle would send", () => {
    const cache = new ShapeCache();
    let renders = 0;
    const send = (q: SQL) =>
      cache.query(shapeOf(q)!, () => {
        renders++;
        return dialect.sqlToQuery(q);
      });
    const first = statement(db.insert(jobs).values(jobRow("job_c", { n: [1, 2] }, null, at)), db.update(jobs).set({ attempts: 2 }).where(eq(jobs.id, "job_c")));
    const second = statement(
      db.insert(jobs).values(jobRow("job_d", { n: "x" }, null, later)),
      db.update(jobs).set({ attempts: 5 }).where(eq(jobs.id, "job_d")),
    );
    assert.deepEqual(sent(send(first)), sent(dialect.sqlToQuery(first)));
    assert.deepEqual(sent(send(second)), sent(dialect.sqlToQuery(second)));
    assert.equal(renders, 1);
    assert.equal(cache.size, 1);
  });

  it("keeps at most its capacity, the least recently used leaving first", () => {
    const cache = new ShapeCache(2);
    let renders = 0;
    const send = (n: number) => {
      const q = updateOfN(n);
      return cache.query(shapeOf(q)!, () => {
        renders++;
        return dialect.sqlToQuery(q);
      });
    };
    send(1);
    send(2);
    send(1); // 1 is now the most recent: 2 is the coldest
    send(3);
    assert.equal(cache.size, 2);
    assert.equal(renders, 3);
    send(1);
    assert.equal(renders, 3, "1 was kept");
    send(2);
    assert.equal(renders, 4, "2 was evicted");
  });

  it("a shape whose parameters Drizzle binds otherwise is rendered by Drizzle every time", () => {
    const cache = new ShapeCache();
    const q = statement(db.update(jobs).set({ attempts: 1 }).where(eq(jobs.id, "job_e")));
    let renders = 0;
    const other = () => {
      renders++;
      return { sql: `rendered ${renders}`, params: ["not the walk's"] };
    };
    assert.equal(cache.query(shapeOf(q)!, other).sql, "rendered 1");
    assert.equal(cache.query(shapeOf(q)!, other).sql, "rendered 2");
  });

  it("in check mode (the test suite's), a kept text that differs from Drizzle's rendering is refused", () => {
    const cache = new ShapeCache();
    cache.check = true;
    const q = statement(db.update(jobs).set({ attempts: 1 }).where(eq(jobs.id, "job_f")));
    const drizzle = () => dialect.sqlToQuery(q);
    cache.query(shapeOf(q)!, drizzle);
    // The same shape again, agreeing with Drizzle: answered from the kept text.
    assert.deepEqual(sent(cache.query(shapeOf(q)!, drizzle)), sent(drizzle()));
    // Drizzle now renders this shape otherwise (as a walk that missed a text-making chunk would see it).
    assert.throws(
      () => cache.query(shapeOf(q)!, () => ({ sql: drizzle().sql.replace("update", "update only"), params: drizzle().params })),
      /differs from Drizzle/,
    );
  });
});

describe("statement shapes: on the database", () => {
  it("every statement of the process's handle is rendered once per shape: each request's own values written through the kept text", async () => {
    const ids = [newId("job"), newId("job"), newId("job")];
    const write = (id: string, n: number, when: Date) =>
      db.transaction((tx) =>
        tx
          .insert(jobs)
          .values(jobRow(id, { n, when }, `shape:${id}`, when))
          .onConflictDoNothing(),
      );
    await write(ids[0], 1, at);
    const before = { hits: shapes.hits, renders: shapes.renders };
    await write(ids[1], 2, later);
    await write(ids[2], 3, later);
    assert.deepEqual({ hits: shapes.hits - before.hits, renders: shapes.renders - before.renders }, { hits: 2, renders: 0 });
    const rows = await db.select().from(jobs).where(inArray(jobs.id, ids));
    rows.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
    assert.deepEqual(
      rows.map((r) => [r.id, r.payload, r.dedupeKey, r.runAt.toISOString(), r.createdAt.toISOString()]),
      [
        [ids[0], { n: 1, when: at.toISOString() }, `shape:${ids[0]}`, at.toISOString(), at.toISOString()],
        [ids[1], { n: 2, when: later.toISOString() }, `shape:${ids[1]}`, later.toISOString(), later.toISOString()],
        [ids[2], { n: 3, when: later.toISOString() }, `shape:${ids[2]}`, later.toISOString(), later.toISOString()],
      ],
    );
  });

  it("writeTogether answers its final query's rows", async () => {
    const id = newId("job");
    const [row] = await db.transaction((tx) =>
      writeTogether<{ n: number | string }>(tx, [tx.insert(jobs).values(jobRow(id, {}, null, at))], sql`select count(*) as n from ${jobs} where false`),
    );
    assert.equal(Number(row.n), 0);
    assert.equal((await db.select().from(jobs).where(eq(jobs.id, id))).length, 1);
  });
});
