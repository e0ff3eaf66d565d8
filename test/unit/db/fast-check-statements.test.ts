/**
 * Statements per fast-check, as the worker runs it (a unit of work): the transfer
 * locked with its beneficiary and customer shared, read with its payout method, in one statement;
 * the monitoring evaluation's aggregates with the open-case tests; the state change; then the
 * unit's effects (the evaluation record, the event). Before: 6 (the transfer's lock, the shared
 * locks and the rows checked were three statements).
 * Counted on the transaction's connection (BEGIN and COMMIT apart: ./support/counted.ts).
 * PGlite, or PostgreSQL with TEST_DB_URL.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { monitoringEvaluations, transfers } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { freshDb } from "../../support/db";
import { newSubscription, submittedTransfer } from "../../support/fixtures";
import { countedUnit } from "./support/counted";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, close } = await freshDb());
});

after(() => close());

/** A submitted transfer of a new customer (registered, with a stored CLABE payout method) whose fast-check is due. */
async function submitted(): Promise<string> {
  return submittedTransfer(db, await newSubscription(db));
}

describe("statements per fast-check", () => {
  it("a passing fast-check: the locks and its rows in one statement, the aggregates with the case tests, the state change, the commit's", async () => {
    const { fastCheck } = await import("@/lib/compliance/fast-check/fast-check-job");
    const run = async (transferId: string) =>
      (await countedUnit(db, (tx) => fastCheck.run!(tx, { payload: { transferId }, now: clock.now() } as never))).statements;
    // The process's first fast-check reads the sets in force and the service secrets (kept afterwards): not counted.
    await run(await submitted());
    const transferId = await submitted();
    assert.equal(await run(transferId), 4);
    const [t] = await db.select().from(transfers).where(eq(transfers.id, transferId));
    assert.equal(t.state, "validated");
    const evaluations = await db.select().from(monitoringEvaluations).where(eq(monitoringEvaluations.transferId, transferId));
    assert.deepEqual(
      evaluations.map((e) => [e.run, e.outcome]),
      [["live", "pass"]],
    );
  });
});
