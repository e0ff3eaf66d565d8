/**
 * Refunds by operator (REFUND_PROVIDER=operator, the production refunds provider; issue 12): a
 * cancelled funded transfer's refund waits PENDING with no provider job; the operator's record
 * "paid" (with the bank reference) completes it and posts the refund's payment, leaving the
 * transfer's accounts at zero; a second record is refused; "failed" then retry goes back to PENDING.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { fundingSessions, jobs } from "@/db/schema";
import { clock } from "@/lib/clock";
import { DomainError } from "@/lib/errors";
import { accountBalances, transferEntries } from "@/lib/ledger";
import { freshDb } from "../../support/db";
import { newSubscription, registeredTransfer, type Owner } from "../../support/fixtures";

process.env.REFUND_PROVIDER = "operator"; // before anything reads the configuration

let db: Db;
let close: () => Promise<void>;
let owner: Owner;

before(async () => {
  ({ db, close } = await freshDb());
  owner = await newSubscription(db);
});
after(() => close());

/** A funded (by card) transfer cancelled by its customer: its refund is owed. */
async function cancelledFunded() {
  const { lockTransfer, transitionTransfer } = await import("@/lib/transfers/records");
  const { openFundingSession, lockFundingSession, completeFunding } = await import("@/lib/transfers/funding");
  const { cancelTransfer } = await import("@/lib/transfers/cancel");
  const t = await registeredTransfer(db, owner);
  const now = clock.now();
  await db.transaction(async (tx) => {
    const row = (await lockTransfer(tx, t.id))!;
    const funding = await transitionTransfer(tx, await transitionTransfer(tx, row, "fastCheck.passed", now), "confirm", now);
    const { fundingSessionId } = await openFundingSession(tx, funding, now);
    await completeFunding(tx, { ...(await lockFundingSession(tx, fundingSessionId))!, outcome: "SUCCEEDED", method: "CARD", now });
  });
  const cancelled = await db.transaction((tx) =>
    cancelTransfer(tx, { subscriptionId: owner.subscriptionId, transferId: t.id, cancellationReason: "CUSTOMER_REQUEST", now }),
  );
  assert.equal(cancelled.refund?.refundStatus, "PENDING");
  return t.id;
}

const record = async (transferId: string, trigger: "operator.paid" | "operator.failed" | "operator.retry", details = {}) => {
  const { lockTransfer } = await import("@/lib/transfers/records");
  const { moveRefund } = await import("@/lib/transfers/refunds");
  return db.transaction(async (tx) => moveRefund(tx, (await lockTransfer(tx, transferId))!, trigger, clock.now(), details));
};

test("the refund waits for the operator, whose 'paid' completes it and posts it back to the card", async () => {
  const id = await cancelledFunded();
  assert.equal(
    (
      await db
        .select()
        .from(jobs)
        .where(and(eq(jobs.kind, "transfers.refundStep")))
    ).filter((j) => JSON.stringify(j.payload).includes(id)).length,
    0,
  );
  assert.deepEqual(
    (await accountBalances(db, { transferId: id })).filter((b) => b.balance !== 0n).map((b) => [b.code, b.balance]),
    [["transfer:refund-due", -10299n]],
  );
  const paid = await record(id, "operator.paid", { bankReference: "NOTPROVIDED-REF-42" });
  assert.equal(paid.state, "COMPLETED");
  assert.equal(paid.bankReference, "NOTPROVIDED-REF-42");
  const entries = await transferEntries(db, id);
  assert.deepEqual(entries.map((e) => e.kind).sort(), ["funding.received", "refund.owed", "refund.paid"]);
  assert.deepEqual(
    entries.find((e) => e.kind === "refund.paid")!.lines.map((l) => [l.account, l.debit, l.credit]),
    [
      ["transfer:refund-due", 10299n, 0n],
      ["cash:card-clearing", 0n, 10299n],
    ],
  );
  assert.deepEqual(
    (await accountBalances(db, { transferId: id })).filter((b) => b.balance !== 0n),
    [],
  );
  await assert.rejects(record(id, "operator.paid", { bankReference: "AGAIN" }), (e: unknown) => e instanceof DomainError && e.code === "refund.stateInvalid");
  assert.equal((await transferEntries(db, id)).length, 3);
});

test("'failed' records the reason and posts nothing; retry puts the refund back in the queue", async () => {
  const id = await cancelledFunded();
  const failed = await record(id, "operator.failed", { failureReason: "Card account closed" });
  assert.deepEqual([failed.state, failed.failureReason], ["FAILED", "Card account closed"]);
  assert.equal((await transferEntries(db, id)).length, 2);
  assert.equal((await record(id, "operator.retry")).state, "PENDING");
  const { refundsDue } = await import("@/lib/console/money");
  const due = await refundsDue(db, 1);
  assert.ok(due.items.some((t) => t.id === id));
  assert.equal((await db.select().from(fundingSessions).where(eq(fundingSessions.transferId, id)))[0].method, "CARD");
});
