/**
 * GET /v1/core/transfers/{id} reads outside a transaction: the row and its state history
 * must still come from one instant. Transfers move registered -> validated on a second connection
 * (its own pool on PostgreSQL) while reads run: every served detail's status is the last state of
 * its history. Reading the row and then the history in two statements fails this on both databases.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sql } from "drizzle-orm";
import type { Db } from "@/db";
import { clock } from "@/lib/platform/clock";
import { freshDbPair } from "../../support/db";
import { newSubscription, registeredTransfer } from "../../support/fixtures";

let db: Db;
let db2: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, db2, close } = await freshDbPair());
});

after(() => close());

describe("transfer detail read outside a transaction", () => {
  it("serves a status equal to the last entry of the history it serves, while transitions commit", async () => {
    const { readTransfer } = await import("@/lib/payments/transfers/read");
    const { lockTransfer, transitionTransfer } = await import("@/lib/payments/transfers/records");
    const owner = await newSubscription(db);
    const created = await Promise.all(Array.from({ length: 30 }, () => registeredTransfer(db, owner)));
    const write = <T>(work: Parameters<Db["transaction"]>[0]) => db.transaction(work) as Promise<T>;
    const served: { transferStatus: string; stateHistory: { state: string }[] }[] = [];
    const validate = (id: string) => db2.transaction(async (tx) => transitionTransfer(tx, (await lockTransfer(tx, id))!, "fastCheck.passed", clock.now()));
    const read = async (id: string) => served.push(await readTransfer(db, write, { subscriptionId: owner.subscriptionId, transferId: id, now: clock.now() }));
    await db2.execute(sql`select 1`);
    // Reads before, during and after each transition.
    const race = async (id: string) => {
      let done = false;
      const loop = async () => {
        while (!done) await read(id);
      };
      const first = read(id);
      const moved = validate(id).finally(() => (done = true));
      await Promise.all([first, moved, read(id), read(id), loop()]);
      await read(id);
    };
    await Promise.all(created.map((t) => race(t.id)));
    for (const detail of served) assert.equal(detail.transferStatus, detail.stateHistory.at(-1)?.state, JSON.stringify(detail));
    // The race was run: both sides of the transition were served.
    assert.ok(served.some((d) => d.transferStatus === "registered"));
    assert.ok(served.some((d) => d.transferStatus === "validated"));
  });

  it("reads the row, payout method, ordered history and no funding session in one statement", async () => {
    const { transferWithDetail } = await import("@/lib/payments/transfers/detail-query");
    const { lockTransfer, transitionTransfer } = await import("@/lib/payments/transfers/records");
    const t = await registeredTransfer(db);
    await db.transaction(async (tx) => transitionTransfer(tx, (await lockTransfer(tx, t.id))!, "fastCheck.passed", clock.now()));
    const found = await transferWithDetail(db, t.subscriptionId, t.id);
    assert.equal(found.row.id, t.id);
    assert.equal(found.payoutMethod, null);
    assert.equal(found.session, null);
    assert.deepEqual(
      found.history.map((h) => h.state),
      ["registered", "validated"],
    );
    assert.ok(found.history.every((h) => h.transitionedAt instanceof Date && !Number.isNaN(h.transitionedAt.getTime())));
    await assert.rejects(transferWithDetail(db, "sub_other", t.id), { code: "transfer.notFound" });
  });
});
