/**
 * GET /v1/core/beneficiaries/{id} and GET /v1/core/profile read outside a transaction:
 * the row and its list (payout methods, login identifiers) come from one statement, so from one
 * instant. A second connection changes the row and adds to its list in one transaction while reads
 * run: every served answer has either both changes or neither. Reading the row and then its list in
 * two statements (as before) serves a row without the list's addition, or the reverse.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { beneficiaries, customers, loginIdentifiers, payoutMethods } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { freshDbPair } from "../../support/db";
import { insertBeneficiary, newSubscription, type Owner } from "../../support/fixtures";

let db: Db;
let db2: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, db2, close } = await freshDbPair());
});

after(() => close());

/** Reads `read` before, during and after `write` commits; returns what was served. */
async function race<T>(read: () => Promise<T>, write: () => Promise<unknown>): Promise<T[]> {
  const served: T[] = [];
  let done = false;
  const once = async () => served.push(await read());
  const loop = async () => {
    while (!done) await once();
  };
  const first = once();
  const written = write().finally(() => (done = true));
  await Promise.all([first, written, once(), once(), loop()]);
  await once();
  return served;
}

const identifier = (owner: Owner, value: string, at: Date) => ({
  id: newId("lid"),
  partnerId: owner.partnerId,
  subscriptionId: owner.subscriptionId,
  type: "EMAIL" as const,
  value,
  verifiedAt: at,
  createdAt: at,
});

describe("reads of a row and its list outside a transaction", () => {
  it("a beneficiary's detail: its lastUsedAt and its payout methods from the same instant", async () => {
    const { readBeneficiary } = await import("@/lib/payments/beneficiaries/manage");
    const owner = await newSubscription(db);
    const ids = await Promise.all(Array.from({ length: 20 }, () => insertBeneficiary(db, owner, clock.now())));
    await db2.execute(sql`select 1`);
    // First use: the beneficiary's lastUsedAt and its first payout method, committed together.
    const use = (id: string) =>
      db2.transaction(async (tx) => {
        const now = clock.now();
        await tx.update(beneficiaries).set({ lastUsedAt: now }).where(eq(beneficiaries.id, id));
        await tx.insert(payoutMethods).values({
          id: newId("pm"),
          beneficiaryId: id,
          methodType: "BANK_TRANSFER",
          corridor: "US-MX",
          destinationIdentifierEncrypted: "test",
          destinationIdentifierMasked: "****7771",
          addedAt: now,
        });
      });
    const served = (
      await Promise.all(
        ids.map((id) =>
          race(
            () => readBeneficiary(db, { subscriptionId: owner.subscriptionId, beneficiaryId: id }),
            () => use(id),
          ),
        ),
      )
    ).flat();
    for (const b of served) assert.equal(b.lastUsedAt !== null, b.payoutMethods.length === 1, JSON.stringify(b));
    assert.ok(served.some((b) => b.lastUsedAt === null));
    assert.ok(served.some((b) => b.lastUsedAt !== null));
    await assert.rejects(readBeneficiary(db, { subscriptionId: "sub_other", beneficiaryId: ids[0] }), { code: "beneficiary.notFound" });
  });

  it("a beneficiary's payout methods in the order they were added; none is an empty list", async () => {
    const { readBeneficiary } = await import("@/lib/payments/beneficiaries/manage");
    const owner = await newSubscription(db);
    const now = clock.now();
    const id = await insertBeneficiary(db, owner, now);
    assert.deepEqual((await readBeneficiary(db, { subscriptionId: owner.subscriptionId, beneficiaryId: id })).payoutMethods, []);
    const method = (masked: string, seconds: number) => ({
      id: newId("pm"),
      beneficiaryId: id,
      methodType: "BANK_TRANSFER",
      corridor: "US-MX",
      destinationIdentifierEncrypted: "test",
      destinationIdentifierMasked: masked,
      addedAt: new Date(now.getTime() + seconds * 1000),
    });
    await db.insert(payoutMethods).values([method("****0002", 2), method("****0001", 1)]);
    const read = await readBeneficiary(db, { subscriptionId: owner.subscriptionId, beneficiaryId: id });
    assert.deepEqual(
      read.payoutMethods.map((m) => m.destinationIdentifierMasked),
      ["****0001", "****0002"],
    );
  });

  it("the profile: the customer row and its login identifiers from the same instant, in the order they were added", async () => {
    const { readProfile } = await import("@/lib/identity/customers/profile");
    const owners = await Promise.all(Array.from({ length: 20 }, () => newSubscription(db)));
    const start = clock.now();
    for (const o of owners) await db.insert(loginIdentifiers).values(identifier(o, `${o.customerId}@example.com`, start));
    await db2.execute(sql`select 1`);
    // A second identifier and the customer's hint, committed together.
    const add = (o: Owner) =>
      db2.transaction(async (tx) => {
        await tx.update(customers).set({ statusOperationalHint: "second identifier" }).where(eq(customers.id, o.customerId));
        await tx.insert(loginIdentifiers).values(identifier(o, `${o.customerId}.2@example.com`, new Date(start.getTime() + 1000)));
      });
    const served = (
      await Promise.all(
        owners.map((o) =>
          race(
            () => readProfile(db, { customerId: o.customerId, subscriptionId: o.subscriptionId }),
            () => add(o),
          ),
        ),
      )
    ).flat();
    for (const p of served) assert.equal(p.statusOperationalHint !== null, p.identifiers.length === 2, JSON.stringify(p));
    assert.ok(served.some((p) => p.identifiers.length === 1 && !p.identifiers[0].canRemove));
    const both = served.filter((p) => p.identifiers.length === 2);
    assert.ok(both.length > 0);
    for (const p of both) {
      assert.notEqual(p.identifiers[0].identifierId, p.identifiers[1].identifierId);
      assert.ok(p.identifiers.every((i) => i.canRemove));
    }
    const last = await readProfile(db, { customerId: owners[0].customerId, subscriptionId: owners[0].subscriptionId });
    assert.deepEqual(
      last.identifiers.map((i) => i.verifiedAt),
      [start.toISOString(), new Date(start.getTime() + 1000).toISOString()],
    );
  });
});
