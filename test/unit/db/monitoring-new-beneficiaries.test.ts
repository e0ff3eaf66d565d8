/**
 * The aggregate senderNewBeneficiariesPaid (read from the sender's beneficiaries created
 * in the window) on its edges: a beneficiary created just inside or just outside
 * the window, paid twice, paid by a cancelled transfer, paid before the window, another customer's
 * beneficiary paid by that customer. On PGlite, and on PostgreSQL with TEST_DB_URL.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { beneficiaries, transfers } from "@/db/schema";
import { freshDb } from "../../support/db";
import { insertTestTransfer, newSubscription, type Owner } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, close } = await freshDb());
});
after(() => close());

const SECOND = 1000;
const WEEK = 7 * 24 * 3600 * SECOND;
const asOf = new Date(Date.UTC(2026, 10, 20, 12));
const at = (ms: number) => new Date(asOf.getTime() + ms);

/** A submitted transfer of `owner` at `submittedAt` to a beneficiary (a new one created at `createdAt` unless given). */
async function paid(owner: Owner, submittedAt: Date, to: { createdAt: Date } | { beneficiaryId: string }, cancelled = false) {
  const priced = {
    originAmount: "100.000000",
    originCurrency: "USD",
    destinationAmount: "1.000000",
    destinationCurrency: "MXN",
    fxRate: "18.750000",
    principalFee: "2.990000",
    partnerFee: "0.000000",
    totalCustomerCost: "100.000000",
  };
  return db.transaction(async (tx) => {
    const existing = "beneficiaryId" in to ? to.beneficiaryId : undefined;
    const row = await insertTestTransfer(tx, owner, submittedAt, existing, { priced });
    const { beneficiaryId } = row;
    if ("createdAt" in to) await tx.update(beneficiaries).set({ createdAt: to.createdAt }).where(eq(beneficiaries.id, beneficiaryId));
    const cancellation = cancelled ? { cancellation: { cancellationReason: "CUSTOMER_REQUEST", cancelRequestedAt: submittedAt.toISOString() } as never } : {};
    await tx
      .update(transfers)
      .set({ submittedAt, ...cancellation })
      .where(eq(transfers.id, row.id));
    return { transferId: row.id, beneficiaryId };
  });
}

/** senderNewBeneficiariesPaid(7d) for `owner` at asOf, read as the evaluation reads it. */
async function newBeneficiariesPaid(owner: Owner, judged: { transferId: string; beneficiaryId: string }): Promise<string> {
  const { readAggregates } = await import("@/lib/compliance/monitoring/evaluate");
  const key = "senderNewBeneficiariesPaid(7d)";
  const subject = { ...judged, customerId: owner.customerId, destinationKey: null, originCurrency: "USD", asOf };
  const { values } = await db.transaction((tx) => readAggregates(tx, subject, [{ key, name: "senderNewBeneficiariesPaid", args: { window: "7d" } }]));
  return values[key];
}

test("new beneficiaries paid in 7 days: created just inside counts, just outside does not; each counts once", async () => {
  const owner = await newSubscription(db);
  const inside = await paid(owner, at(-3600 * SECOND), { createdAt: at(-WEEK + SECOND) });
  await paid(owner, at(-60 * SECOND), { beneficiaryId: inside.beneficiaryId });
  await paid(owner, at(-3600 * SECOND), { createdAt: at(-WEEK) });
  const judged = await paid(owner, asOf, { createdAt: at(-WEEK - SECOND) });
  assert.equal(await newBeneficiariesPaid(owner, judged), "1");
});

test("a new beneficiary paid by a cancelled transfer counts (the transfer was submitted); one paid only after asOf does not", async () => {
  const owner = await newSubscription(db);
  await paid(owner, at(-2 * 3600 * SECOND), { createdAt: at(-24 * 3600 * SECOND) }, true);
  await paid(owner, at(60 * SECOND), { createdAt: at(-3600 * SECOND) });
  const judged = await paid(owner, asOf, { createdAt: at(-30 * 24 * 3600 * SECOND) });
  assert.equal(await newBeneficiariesPaid(owner, judged), "1");
});

test("another customer's new beneficiaries, paid by that customer, do not count for the sender; the transfer judged counts", async () => {
  const owner = await newSubscription(db);
  const other = await newSubscription(db);
  await paid(other, at(-3600 * SECOND), { createdAt: at(-2 * 3600 * SECOND) });
  await paid(other, at(-60 * SECOND), { createdAt: at(-2 * 3600 * SECOND) });
  const judged = await paid(owner, asOf, { createdAt: at(-60 * SECOND) });
  assert.equal(await newBeneficiariesPaid(owner, judged), "1");
  assert.equal(await newBeneficiariesPaid(other, judged), "2");
});
