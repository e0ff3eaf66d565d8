/**
 * The stored normal forms (migration 0035): written when a profile is submitted and a subscription
 * opened, filled for rows stored before by identifiers.backfillNormalForms, and read by the
 * console's customer search and its list of customers sharing an identifier. On PGlite, and on
 * PostgreSQL with TEST_DATABASE_URL.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eq, inArray } from "drizzle-orm";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { customers, loginIdentifiers } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { freshDb } from "../../support/db";
import { monitoringHelpers } from "../../support/monitoring";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, close } = await freshDb());
});
after(() => close());

const { registeredSender } = monitoringHelpers(() => db);

test("rows stored before the keys are filled by the backfill walk (customers, then login identifiers), and a second walk changes nothing", async () => {
  const { backfillNormalForms } = await import("@/lib/identity/identifiers/backfill-job");
  const local = newId("old").slice(-8);
  const a = await registeredSender({ identifier: `Old.${local}@gmail.com`, address: { addressLine1: `7 ${local} Avenue`, postalCode: "78701" } });
  // As a row written before migration 0035: no keys.
  await db.update(customers).set({ addressKey: null }).where(eq(customers.id, a.customerId));
  await db.update(loginIdentifiers).set({ matchKey: null }).where(eq(loginIdentifiers.subscriptionId, a.subscriptionId));
  const [stored] = await db.select().from(loginIdentifiers).where(eq(loginIdentifiers.subscriptionId, a.subscriptionId));
  // One batch each, starting just before these rows (a prefix of an id sorts before it): the database may be shared.
  const walk = async () => {
    for (const payload of [
      { table: "customers" as const, afterId: a.customerId.slice(0, -1) },
      { table: "login_identifiers" as const, afterId: stored.id.slice(0, -1) },
    ]) {
      await db.transaction((tx) => backfillNormalForms.run!(tx, { payload, now: clock.now() } as never));
    }
  };
  await walk();
  const [c] = await db.select().from(customers).where(eq(customers.id, a.customerId));
  assert.equal(c.addressKey, `USA|78701|7 ${local.toUpperCase()} AVE`);
  const [l] = await db.select().from(loginIdentifiers).where(eq(loginIdentifiers.subscriptionId, a.subscriptionId));
  assert.deepEqual([l.value, l.matchKey], [`old.${local}@gmail.com`, `old${local}@gmail.com`], "the login stays as typed; the key is the mailbox");
  await walk();
  const [again] = await db.select().from(customers).where(eq(customers.id, a.customerId));
  assert.equal(again.updatedAt.getTime(), c.updatedAt.getTime(), "derived data: updatedAt stays");
});

test("console: search finds a login by another spelling of its mailbox or number; the customer page lists who shares what", async () => {
  const { searchCustomers } = await import("@/lib/operations/console/queries");
  const { customersSharingIdentifiers } = await import("@/lib/identity/identifiers/shared");
  const local = newId("kim").slice(-8);
  const line = `${local} Harbour Road`;
  const a = await registeredSender({ identifier: `kim.${local}@gmail.com`, address: { addressLine1: line, postalCode: "78701" } });
  const b = await registeredSender({
    identifier: `+1415555${String(Date.now()).slice(-4)}`,
    address: { addressLine1: `${local} harbour rd.`, postalCode: "78701" },
  });
  const found = await searchCustomers(db, `KIM${local}+x@googlemail.com`);
  assert.deepEqual(
    found.map((r) => r.s.id),
    [a.subscriptionId],
  );
  const [phone] = await db.select().from(loginIdentifiers).where(eq(loginIdentifiers.subscriptionId, b.subscriptionId));
  const spaced = `${phone.value.slice(0, 2)} (${phone.value.slice(2, 5)}) ${phone.value.slice(5, 8)}-${phone.value.slice(8)}`;
  assert.deepEqual(
    (await searchCustomers(db, spaced)).map((r) => r.s.id),
    [b.subscriptionId],
  );
  assert.deepEqual(await customersSharingIdentifiers(db, a.customerId), [{ customerId: b.customerId, subscriptionId: b.subscriptionId, shared: ["address"] }]);
  const rows = await db
    .select({ id: customers.id, key: customers.addressKey })
    .from(customers)
    .where(inArray(customers.id, [a.customerId, b.customerId]));
  assert.equal(new Set(rows.map((r) => r.key)).size, 1);
});
