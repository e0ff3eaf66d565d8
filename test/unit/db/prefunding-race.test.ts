/**
 * A router's cover check and a top-up of the same provider and currency are serialized, also when
 * the provider was never topped up: the router creates the (empty) prefunding account before it
 * locks it, so a first top-up waits on the account's key until the router commits, and its release
 * then sees the try the router held. Before, a provider with no account had no row to lock: a
 * failover that read no cover committed its held try after the top-up's release had looked, and
 * the try waited for another top-up (the payout-routing integration test timed out so on
 * PostgreSQL). PostgreSQL only: PGlite has one connection, so no two transactions overlap there.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Db } from "@/db";
import { newId } from "@/db/ids";
import { clock } from "@/lib/platform/clock";
import { freshDbPair } from "../../support/db";

let db: Db;
let db2: Db;
let close: () => Promise<void>;

/** How long the router keeps its transaction open after its cover check: well past a top-up's own work. */
const HOLD_MS = 700;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

if (process.env.TEST_DB_URL) {
  describe("prefunding: a router and a first top-up (PostgreSQL)", () => {
    before(async () => {
      // A database of its own: the test reads a provider's cover from nothing, and other files top
      // up the same providers in the run's shared database (CI failed so when one ran first).
      ({ db, db2, close } = await freshDbPair({ ownDatabase: true }));
    });
    after(() => close());

    it("a top-up of a provider never topped up waits for the router that read its cover, then sees the router's work", async () => {
      const { availableCover } = await import("@/lib/payments/payouts/routed");
      const { topUpPrefunding } = await import("@/lib/payments/payouts/prefunding");
      const now = clock.now();
      let read!: () => void;
      const routerRead = new Promise<void>((resolve) => (read = resolve));
      let routerOpen = true;
      const router = db.transaction(async (tx) => {
        assert.equal(await availableCover(tx, "bank-file", "MXN", now), 0n);
        read();
        await sleep(HOLD_MS);
        routerOpen = false;
      });
      await routerRead;
      let toppedUpWhileRouterOpen: boolean | undefined;
      const topUp = db2
        .transaction((tx) => topUpPrefunding(tx, { provider: "bank-file", currency: "MXN", amount: "1000.00", bankReference: newId("ref") }, now))
        .then(() => (toppedUpWhileRouterOpen = routerOpen));
      await Promise.all([router, topUp]);
      assert.equal(toppedUpWhileRouterOpen, false, "the top-up committed while the router's transaction was open");
      // Once both committed the money is there for the next router.
      assert.equal(await db.transaction((tx) => availableCover(tx, "bank-file", "MXN", now)), 100000n);
    });
  });
}
