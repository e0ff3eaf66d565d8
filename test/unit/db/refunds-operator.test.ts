/**
 * Refunds by operator (REFUND_PROVIDER=operator, the production refunds provider): a
 * cancelled funded transfer's refund waits PENDING with no provider job; the operator's record
 * "paid" (with the bank reference) completes it and posts the refund's payment, leaving the
 * transfer's accounts at zero; a second record is refused; "failed" then retry goes back to PENDING.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { events, fundingSessions, jobs, partners, refunds, refundStateHistory } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { DomainError } from "@/lib/platform/errors";
import { accountBalances, transferEntries } from "@/lib/finance/ledger";
import { freshDb } from "../../support/db";
import { newSubscription, registeredTransfer, type Owner } from "../../support/fixtures";

process.env.REFUND_PROVIDER = "operator"; // before anything reads the configuration

let db: Db;
let close: () => Promise<void>;
let owner: Owner;

before(async () => {
  ({ db, close } = await freshDb());
  owner = await newSubscription(db);
  // An endpoint ready, so each event has its delivery job (none is run here).
  await db.update(partners).set({ webhookUrl: "https://partner.example/hooks", webhookSecret: "whsec_dGVzdA==" }).where(eq(partners.id, owner.partnerId));
});
after(() => close());

/** A funded (by card) transfer cancelled by its customer: its refund is owed. */
async function cancelledFunded() {
  const { lockTransfer, transitionTransfer } = await import("@/lib/payments/transfers/records");
  const { openFundingSession, lockFundingSession, completeFunding } = await import("@/lib/payments/transfers/funding");
  const { cancelTransfer } = await import("@/lib/payments/transfers/cancel");
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
  const { lockTransfer } = await import("@/lib/payments/transfers/records");
  const { moveRefund } = await import("@/lib/payments/transfers/refunds");
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
  const { refundsDue } = await import("@/lib/operations/console/money");
  const due = await refundsDue(db, 1);
  assert.ok(due.items.some((t) => t.id === id));
  assert.equal((await db.select().from(fundingSessions).where(eq(fundingSessions.transferId, id)))[0].method, "CARD");
});

/** The refund events of a transfer, oldest first, with their webhook delivery jobs. */
async function refundEvents(transferId: string) {
  const rows = await db.select().from(events).where(eq(events.subscriptionId, owner.subscriptionId)).orderBy(asc(events.sequence));
  const mine = rows.filter((e) => e.eventType.startsWith("refund.") && (e.body as { data: { transferId: string } }).data.transferId === transferId);
  const deliveries = await db.select().from(jobs).where(eq(jobs.kind, "webhooks.deliver"));
  return mine.map((e) => ({
    eventType: e.eventType,
    data: (e.body as { data: unknown }).data,
    delivery: deliveries.filter((j) => (j.payload as { eventId: string }).eventId === e.id).length,
  }));
}

async function refundHistory(transferId: string) {
  const rows = await db
    .select({ state: refundStateHistory.state, trigger: refundStateHistory.trigger, seq: refundStateHistory.seq })
    .from(refundStateHistory)
    .innerJoin(refunds, eq(refunds.id, refundStateHistory.refundId))
    .where(eq(refunds.transferId, transferId))
    .orderBy(asc(refundStateHistory.seq));
  return rows.map((r) => [r.seq, r.state, r.trigger]);
}

test("refund events and history (issue 21): failed is refund.failed, paid is refund.completed, each with its webhook; every move in the history", async () => {
  const id = await cancelledFunded();
  assert.deepEqual(await refundEvents(id), [], "PENDING is no event");
  await record(id, "operator.failed", { failureReason: "Card account closed" });
  assert.deepEqual(await refundEvents(id), [
    { eventType: "refund.failed", data: { transferId: id, refundStatus: "FAILED", refundMethod: "ORIGINAL_PAYMENT_METHOD" }, delivery: 1 },
  ]);
  await record(id, "operator.retry");
  const paid = await record(id, "operator.paid", { bankReference: "REF-9" });
  const emitted = await refundEvents(id);
  assert.equal(emitted.length, 2, "retry is no event");
  assert.deepEqual(emitted[1], {
    eventType: "refund.completed",
    data: { transferId: id, refundStatus: "COMPLETED", refundMethod: "ORIGINAL_PAYMENT_METHOD", refundCompletedAt: paid.completedAt!.toISOString() },
    delivery: 1,
  });
  assert.ok(!JSON.stringify(emitted).includes("Card account closed"), "the operator's reason never reaches the partner");
  assert.deepEqual(await refundHistory(id), [
    [1, "PENDING", "create"],
    [2, "FAILED", "operator.failed"],
    [3, "PENDING", "operator.retry"],
    [4, "COMPLETED", "operator.paid"],
  ]);
});
