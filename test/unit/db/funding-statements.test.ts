/**
 * Statements of a funding's completion, as POST /v1/sandbox/funding-sessions/{id}/complete
 * and the hosted page run it (a unit of work): the session and its transfer locked in one
 * statement, the state change, the session closed with its webview URL retired in one, then the
 * unit's effects (the ledger's entry, the event, the receipt e-mail and the network's step jobs).
 * The ledger's entry is two statements: its accounts with the closed-month check, then the entry
 * with its lines. Before: 12 (the session peeked, the transfer and the session locked apart, the session and its
 * URL closed apart, the network's step job enqueued at once, the entry in five).
 * Counted on the transaction's connection (BEGIN and COMMIT apart: ./support/counted.ts).
 * PGlite, or PostgreSQL with TEST_DB_URL.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db";
import { fundingSessions, jobs, transfers, webviewTokens } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { freshDb } from "../../support/db";
import { newSubscription, registeredTransfer } from "../../support/fixtures";
import { countedUnit } from "./support/counted";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, close } = await freshDb());
});

after(() => close());

/** A transfer in funding with its open session (its webview URL live). */
async function inFunding(): Promise<{ transferId: string; fundingSessionId: string }> {
  const { lockTransfer, transitionTransfer } = await import("@/lib/payments/transfers/records");
  const { openFundingSession } = await import("@/lib/payments/transfers/funding");
  const t = await registeredTransfer(db, await newSubscription(db));
  const now = clock.now();
  return db.transaction(async (tx) => {
    const row = (await lockTransfer(tx, t.id))!;
    const funding = await transitionTransfer(tx, await transitionTransfer(tx, row, "fastCheck.passed", now), "confirm", now);
    const { fundingSessionId } = await openFundingSession(tx, funding, now);
    return { transferId: t.id, fundingSessionId };
  });
}

async function complete(fundingSessionId: string) {
  const { completeFunding, lockFundingSession } = await import("@/lib/payments/transfers/funding");
  return countedUnit(db, async (tx) => {
    const locked = (await lockFundingSession(tx, fundingSessionId))!;
    return completeFunding(tx, { ...locked, outcome: "SUCCEEDED", method: "SANDBOX", now: clock.now() });
  });
}

describe("statements of a funding's completion", () => {
  it("succeeded: the locks, the state change, the session closed, then the ledger's and the unit's effects", async () => {
    // The process's first posting reads the ledger's accounts (kept afterwards): not counted.
    await complete((await inFunding()).fundingSessionId);
    const { transferId, fundingSessionId } = await inFunding();
    const { value, statements } = await complete(fundingSessionId);
    assert.deepEqual(value, { fundingSessionId, sessionState: "SUCCEEDED", transferStatus: "funded" });
    assert.equal(statements, 6);
    const [t] = await db.select().from(transfers).where(eq(transfers.id, transferId));
    assert.equal(t.state, "funded");
    const [s] = await db.select().from(fundingSessions).where(eq(fundingSessions.id, fundingSessionId));
    assert.deepEqual([s.state, s.method, s.completedAt !== null], ["SUCCEEDED", "SANDBOX", true]);
    const live = await db
      .select()
      .from(webviewTokens)
      .where(and(eq(webviewTokens.sessionId, fundingSessionId), isNull(webviewTokens.usedAt)));
    assert.equal(live.length, 0, "the session's URL is retired");
    const receipt = await db.select().from(jobs).where(eq(jobs.kind, "receipts.email"));
    assert.ok(receipt.some((j) => (j.payload as { transferId: string }).transferId === transferId));
  });
});
