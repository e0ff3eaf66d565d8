/**
 * The console's transfers list and search on the database: a transfer is found by
 * its id, its RF funding reference (with or without spaces), an amount however written, the
 * customer's, the payer's or the beneficiary's name, the customer's or partner's id, narrowed by
 * state and creation dates; pattern characters in a name are literal; the list pages by 20.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { bankCredits, customers, fundingSessions, transfers } from "@/db/schema";
import { addSeconds, clock } from "@/lib/platform/clock";
import { freshDb } from "../../support/db";
import { newSubscription, registeredTransfer, type Owner } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;
let owner: Owner;
let paid: string;
let other: string;
const REFERENCE = "RF18539007547034";

before(async () => {
  ({ db, close } = await freshDb());
  owner = await newSubscription(db);
  const now = clock.now();
  await db
    .update(customers)
    .set({ profile: { firstName: "Grace", lastName: "O'Hopper_Search" } })
    .where(eq(customers.id, owner.customerId));
  paid = (await registeredTransfer(db, owner)).id;
  await db.update(transfers).set({ originAmount: "52.990000", totalCustomerCost: "55.980000" }).where(eq(transfers.id, paid));
  await db.insert(fundingSessions).values({
    id: newId("fs"),
    transferId: paid,
    state: "SUCCEEDED",
    method: "BANK_TRANSFER",
    creditorReference: REFERENCE,
    expiresAt: addSeconds(now, 1800),
    createdAt: now,
  });
  await db.insert(bankCredits).values({
    id: newId("bcr"),
    bankReference: `SEARCH-${paid}`,
    amount: "55.98",
    currency: "USD",
    creditorReference: REFERENCE,
    payerName: "Jonas Payerman",
    statementId: "STMT-SEARCH",
    state: "MATCHED",
    transferId: paid,
    createdAt: now,
  });
  other = (await registeredTransfer(db)).id;
});
after(() => close());

async function found(search: Record<string, string>, page = 1): Promise<string[]> {
  const { searchTransfers, TransferSearch } = await import("@/lib/operations/console/transfer-search");
  return (await searchTransfers(db, TransferSearch.parse(search), page)).items.map((t) => t.id);
}

test("by transfer id, RF reference (spaced or not), amount, names and ids: the transfer, and not another", async () => {
  for (const q of [
    paid,
    REFERENCE,
    "rf18 5390 0754 7034",
    "52.99",
    "55,98",
    "grace o'hopper",
    "Hopper_Search",
    "jonas payer",
    owner.subscriptionId,
    owner.customerId,
    owner.partnerId,
  ]) {
    const ids = await found({ q });
    assert.ok(ids.includes(paid), `"${q}" finds the transfer`);
    assert.ok(!ids.includes(other), `"${q}" finds only what it names`);
  }
  assert.deepEqual(await found({ q: "RF18000000000000" }), []);
  // "_" and "%" are literal in a name: "Hopper%Search" is nobody.
  assert.deepEqual(await found({ q: "Hopper%Search" }), []);
});

test("state and the creation dates narrow the list; a bad state or date is ignored, not an error", async () => {
  const today = clock.now().toISOString().slice(0, 10);
  assert.ok((await found({ state: "registered", from: today, to: today })).includes(paid));
  assert.ok(!(await found({ state: "funded" })).includes(paid));
  assert.ok(!(await found({ from: "2999-01-01" })).includes(paid));
  assert.ok(!(await found({ to: "2000-01-01" })).includes(paid));
  assert.ok((await found({ state: "nonsense", from: "yesterday" })).includes(paid));
});

test("the list is every transfer newest first, 20 a page, with names beside ids", async () => {
  const { searchTransfers, TransferSearch } = await import("@/lib/operations/console/transfer-search");
  for (let i = 0; i < 20; i++) await registeredTransfer(db, owner);
  const first = await searchTransfers(db, TransferSearch.parse({ q: owner.subscriptionId }), 1);
  const second = await searchTransfers(db, TransferSearch.parse({ q: owner.subscriptionId }), 2);
  assert.equal(first.items.length, 20);
  assert.equal(first.hasMore, true);
  assert.deepEqual(
    second.items.map((t) => t.id),
    [paid],
    "the oldest last",
  );
  const row = second.items[0];
  assert.equal(row.partnerName, `Test ${owner.partnerId}`);
  assert.deepEqual(row.customerProfile, { firstName: "Grace", lastName: "O'Hopper_Search" });
  assert.equal(row.reference, REFERENCE);
});
