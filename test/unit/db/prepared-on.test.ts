/**
 * db/prepared.ts's preparedOn: a query of a transaction is built once per process and
 * each use runs on its own transaction's connection (a copy bound to it), never on the connection
 * of the transaction it was first built in. PGlite, or PostgreSQL with TEST_DB_URL.
 */
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { eq, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { newId } from "@/db/ids";
import { placeholdersFor, preparedOn } from "@/db/prepared";
import { partners } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { freshDb } from "../../support/db";

let db: Db;
let close: () => Promise<void>;
before(async () => {
  ({ db, close } = await freshDb());
});
after(() => close());

let builds = 0;
const partnerById = (tx: Tx) =>
  preparedOn(tx, "test_partner_by_id", (e) => {
    builds++;
    return e
      .select({ id: partners.id })
      .from(partners)
      .where(eq(partners.id, sql.placeholder("id")))
      .prepare("test_partner_by_id");
  });

async function insertPartner(tx: Tx, id: string) {
  const now = clock.now();
  await tx.insert(partners).values({ id, name: `Test ${id}`, webhookUrl: null, webhookSecret: null, createdAt: now, updatedAt: now });
}

class RollBack extends Error {}

it("runs on each transaction's own connection, built once", async () => {
  const first = newId("ptn");
  const second = newId("ptn");
  // Each transaction sees its own uncommitted row through the query: it runs inside that transaction.
  for (const id of [first, second]) {
    await assert.rejects(
      db.transaction(async (tx) => {
        await insertPartner(tx, id);
        assert.deepEqual(await partnerById(tx).execute({ id }), [{ id }]);
        throw new RollBack();
      }),
      RollBack,
    );
  }
  await db.transaction(async (tx) => {
    assert.deepEqual(await partnerById(tx).execute({ id: first }), [], "the rolled-back row is gone");
  });
  assert.equal(builds, 1, "the query was built once for three transactions");
});

it("placeholdersFor: a null is written as null (its own shape), a value through its column", async () => {
  const id = newId("ptn");
  await db.transaction((tx) => insertPartner(tx, id));
  const update = (tx: Tx, values: { webhookPreviousSecretExpiresAt: Date | null; name: string }) => {
    const { shape, set } = placeholdersFor(values);
    const name = `test_partner_update:${shape}`;
    return preparedOn(tx, name, (e) =>
      e
        .update(partners)
        .set(set)
        .where(eq(partners.id, sql.placeholder("id")))
        .returning({ expires: partners.webhookPreviousSecretExpiresAt })
        .prepare(name),
    ).execute({ ...values, id });
  };
  const at = new Date("2026-01-02T03:04:05.000Z");
  assert.deepEqual(await db.transaction((tx) => update(tx, { webhookPreviousSecretExpiresAt: at, name: "a" })), [{ expires: at }]);
  assert.deepEqual(await db.transaction((tx) => update(tx, { webhookPreviousSecretExpiresAt: null, name: "b" })), [{ expires: null }]);
});
