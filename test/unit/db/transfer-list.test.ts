/**
 * GET /v1/core/transfers' query (the page and the overdue check in one prepared
 * statement): pages by cursor, filters, and expires overdue transfers before listing them.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Db } from "@/db";
import { addSeconds, clock } from "@/lib/platform/clock";
import { freshDb } from "../../support/db";
import { newSubscription, registeredTransfer, TRANSFER_TTL_SECONDS } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, close } = await freshDb());
});

after(() => close());

describe("transfer list", () => {
  it("pages newest first by cursor, filters, and expires overdue transfers first", async () => {
    const { listTransfers } = await import("@/lib/payments/transfers/list");
    const write = <T>(work: Parameters<Db["transaction"]>[0]) => db.transaction(work) as Promise<T>;
    const owner = await newSubscription(db);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await registeredTransfer(db, owner)).id);
    const list = (extra: Partial<Parameters<typeof listTransfers>[2]> = {}) =>
      listTransfers(db, write, { subscriptionId: owner.subscriptionId, limit: 2, now: clock.now(), ...extra });

    const first = await list();
    assert.deepEqual(
      first.items.map((t) => t.transferId),
      [ids[2], ids[1]],
    );
    assert.ok(first.nextCursor);
    const second = await list({ cursor: first.nextCursor! });
    assert.deepEqual(
      second.items.map((t) => t.transferId),
      [ids[0]],
    );
    assert.equal(second.nextCursor, null);
    assert.equal((await list({ states: ["validated"] })).items.length, 0);
    assert.equal((await list({ createdSince: addSeconds(clock.now(), 60) })).items.length, 0);
    const other = await newSubscription(db);
    await assert.rejects(list({ subscriptionId: other.subscriptionId, cursor: first.nextCursor! }), { code: "validation.fieldInvalid" });

    // Past their 120 minutes: expired by the list itself, in both the default and a filtered list.
    const later = addSeconds(clock.now(), TRANSFER_TTL_SECONDS + 1);
    const expired = await list({ now: later, limit: 10 });
    assert.deepEqual(
      expired.items.map((t) => t.transferStatus),
      ["expired", "expired", "expired"],
    );
    assert.equal((await list({ now: later, states: ["expired"], limit: 10 })).items.length, 3);
  });
});
