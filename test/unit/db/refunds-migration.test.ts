/**
 * Migration 0016: refunds and network cancellations held in the transfer's jsonb
 * move to their own rows with one history row each, and the jsonb keeps only what the customer
 * asked. The test puts the old column back, writes rows as the old code did, and runs the
 * migration's data statements (read from the file itself) on either database, next to the rows
 * other tests wrote (the shared PostgreSQL database): those keep their single history.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { networkCancellations, networkCancellationStateHistory, refunds, refundStateHistory, transfers } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { freshDb } from "../../support/db";
import { insertTestTransfer, newSubscription } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, close } = await freshDb());
});
after(async () => close());

/** The migration's statements from its first data copy on (the tables already exist). */
function dataStatements(): string[] {
  const file = readFileSync(path.resolve("db/migrations/0016_refunds_network_cancellations.sql"), "utf8");
  const statements = file.split("--> statement-breakpoint").map((s) => s.trim());
  const first = statements.findIndex((s) => s.includes('INSERT INTO "refunds"'));
  assert.ok(first > 0, "the migration copies refunds");
  return statements.slice(first);
}

test("0016 moves jsonb refunds and network cancellations into their tables, with history", async () => {
  const owner = await newSubscription(db);
  const now = clock.now();
  const ids = await db.transaction(async (tx) => ({
    refunded: (await insertTestTransfer(tx, owner, now)).id,
    pending: (await insertTestTransfer(tx, owner, now)).id,
    succeeded: (await insertTestTransfer(tx, owner, now)).id,
    aborted: (await insertTestTransfer(tx, owner, now)).id,
  }));
  await db.execute(sql`alter table transfers add column refund jsonb`);
  const asked = { cancellationReason: "CUSTOMER_REQUEST", cancelRequestedAt: "2026-11-21T10:00:00.000Z" };
  const old = {
    [ids.refunded]: {
      cancellation: { ...asked, cancellationOutcome: "CANCELED_PRE_NETWORK", canceledAt: "2026-11-21T10:00:00.000Z" },
      refund: {
        refundStatus: "COMPLETED",
        refundMethod: "ORIGINAL_PAYMENT_METHOD",
        refundInitiatedAt: "2026-11-21T10:00:00.000Z",
        estimatedRefundCompletionBy: "2026-11-24T10:00:00.000Z",
        refundCompletedAt: "2026-11-21T11:00:00.000Z",
        bankReference: "REF-1",
      },
    },
    [ids.pending]: {
      cancellation: {
        ...asked,
        cancellationOutcome: "NETWORK_CANCELLATION_PENDING",
        canceledAt: null,
        networkCancellationExpectedBy: "2026-11-21T10:01:00.000Z",
      },
      refund: null,
    },
    [ids.succeeded]: {
      cancellation: {
        ...asked,
        cancellationOutcome: "NETWORK_CANCELLATION_SUCCESS",
        canceledAt: "2026-11-21T10:00:30.000Z",
        networkCancellationExpectedBy: "2026-11-21T10:01:00.000Z",
      },
      refund: {
        refundStatus: "PENDING",
        refundMethod: "ORIGINAL_PAYMENT_METHOD",
        refundInitiatedAt: "2026-11-21T10:00:30.000Z",
        estimatedRefundCompletionBy: "2026-11-24T10:00:30.000Z",
      },
    },
    [ids.aborted]: { cancellation: { ...asked, cancellationOutcome: "ABORTED_PRE_FUNDING", canceledAt: "2026-11-21T10:00:00.000Z" }, refund: null },
  };
  for (const [id, v] of Object.entries(old)) {
    await db.execute(
      sql`update transfers set cancellation = ${JSON.stringify(v.cancellation)}::jsonb, refund = ${v.refund ? JSON.stringify(v.refund) : null}::jsonb where id = ${id}`,
    );
  }
  const historyCount = async () => (await db.select({ id: refundStateHistory.id }).from(refundStateHistory)).length;
  const othersBefore = await historyCount();
  for (const statement of dataStatements()) await db.execute(sql.raw(statement));
  assert.equal(await historyCount(), othersBefore + 2, "only the two copied refunds got a history row");

  const columns = await db.execute(sql`select column_name from information_schema.columns where table_name = 'transfers' and column_name = 'refund'`);
  assert.equal((Array.isArray(columns) ? columns : (columns as { rows: unknown[] }).rows).length, 0, "the jsonb column is gone");

  const mine = Object.values(ids);
  const refundRows = await db.select().from(refunds).where(inArray(refunds.transferId, mine));
  assert.deepEqual(
    refundRows.map((r) => [r.transferId, r.state, r.bankReference, r.completedAt?.toISOString() ?? null, r.estimatedCompletionBy.toISOString()]).sort(),
    [
      [ids.refunded, "COMPLETED", "REF-1", "2026-11-21T11:00:00.000Z", "2026-11-24T10:00:00.000Z"],
      [ids.succeeded, "PENDING", null, null, "2026-11-24T10:00:30.000Z"],
    ].sort(),
  );
  const refundHistory = await db
    .select()
    .from(refundStateHistory)
    .where(
      inArray(
        refundStateHistory.refundId,
        refundRows.map((r) => r.id),
      ),
    );
  assert.deepEqual(refundHistory.map((h) => [h.refundId, h.state, h.trigger, h.seq]).sort(), refundRows.map((r) => [r.id, r.state, "migrated", 1]).sort());

  const requests = await db.select().from(networkCancellations).where(inArray(networkCancellations.transferId, mine));
  assert.deepEqual(
    requests.map((n) => [n.transferId, n.state, n.expectedBy.toISOString(), n.resolvedAt?.toISOString() ?? null]).sort(),
    [
      [ids.pending, "PENDING", "2026-11-21T10:01:00.000Z", null],
      [ids.succeeded, "SUCCEEDED", "2026-11-21T10:01:00.000Z", "2026-11-21T10:00:30.000Z"],
    ].sort(),
  );
  const requestHistory = await db
    .select()
    .from(networkCancellationStateHistory)
    .where(
      inArray(
        networkCancellationStateHistory.networkCancellationId,
        requests.map((n) => n.id),
      ),
    );
  assert.deepEqual(requestHistory.map((h) => [h.state, h.trigger, h.seq]).sort(), requests.map((n) => [n.state, "migrated", 1]).sort());

  const cancellationOf = async (id: string) => (await db.select({ c: transfers.cancellation }).from(transfers).where(eq(transfers.id, id)))[0].c;
  assert.deepEqual(await cancellationOf(ids.pending), asked, "the network's answer left the jsonb");
  assert.deepEqual(await cancellationOf(ids.aborted), old[ids.aborted].cancellation, "a cancellation decided at once keeps its outcome");

  // What the partner reads is unchanged: the detail projects the request's state as before.
  const { transferDetail } = await import("@/lib/payments/transfers/view");
  const row = async (id: string) => (await db.select().from(transfers).where(eq(transfers.id, id)))[0];
  assert.deepEqual((await transferDetail(db, await row(ids.succeeded))).cancellation, old[ids.succeeded].cancellation);
  assert.deepEqual((await transferDetail(db, await row(ids.pending))).cancellation, old[ids.pending].cancellation);
  const refunded = await row(ids.refunded);
  assert.deepEqual((await transferDetail(db, refunded)).refund, {
    refundStatus: "COMPLETED",
    estimatedRefundCompletionBy: "2026-11-24T10:00:00.000Z",
    refundMethod: "ORIGINAL_PAYMENT_METHOD",
    // What is refunded, always the total paid (fees included).
    refundAmount: refunded.totalCustomerCost,
    refundCurrency: refunded.originCurrency,
  });
});
