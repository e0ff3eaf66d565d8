/**
 * Lock order between the writes of a journey: at 32 journeys/s on PostgreSQL, 12 of 480
 * accepts failed with `deadlock detected`, in two cycles.
 *  1. The accept held the subscription's lock (its limits) and, at commit, waited to update the
 *     quote's beneficiary, which a fast-check held FOR SHARE while it waited to count its event on
 *     that subscription. The accept now locks the beneficiary before the subscription.
 *  2. The accept's transfer insert checks its customer's foreign key (FOR KEY SHARE), which waited
 *     on a confirmation's customer lock (FOR UPDATE), while that confirmation waited to count its
 *     event on the subscription the accept held. The confirmation now locks FOR NO KEY UPDATE.
 * Each test holds the other side's lock in a second transaction and checks that the accept gets
 * through. PostgreSQL only: PGlite has one connection, so no two transactions overlap there.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { eq, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { beneficiaries, customers, subscriptions } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { freshDbPair } from "../../support/db";
import { acceptInput, disclosedQuote, newSubscription, registeredTransfer, type Owner } from "../../support/fixtures";

let db: Db;
let db2: Db;
let close: () => Promise<void>;

/** How long the second transaction keeps its lock before its next step: well past the accept's own work. */
const HOLD_MS = 700;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The accept as the route runs it: one unit of work, its effects written by the commit's statement. */
async function accept(owner: Owner, q: { quoteId: string; disclosureToken: string }) {
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const { acceptQuote } = await import("@/lib/payments/quotes/accept");
  return inUnit(({ tx }) => acceptQuote(tx, acceptInput(owner, q)), { db });
}

/** A customer with a profile, a beneficiary (of a first transfer) and a disclosed quote to it. */
async function readyToAccept() {
  const owner = await newSubscription(db);
  await db
    .update(customers)
    .set({ profile: { residenceCountry: "USA" } })
    .where(eq(customers.id, owner.customerId));
  const { beneficiaryId } = await registeredTransfer(db, owner);
  return { owner, beneficiaryId, quote: await disclosedQuote(db, owner, beneficiaryId) };
}

/** The subscription's event counter moved as an event's statement moves it (lib/partners/events/emit.ts). */
const countEvent = (tx: Tx, subscriptionId: string) =>
  tx
    .update(subscriptions)
    .set({ eventSequence: sql`${subscriptions.eventSequence} + 1` })
    .where(eq(subscriptions.id, subscriptionId));

if (process.env.TEST_DB_URL) {
  describe("lock order: an accept beside the journey's other writes (PostgreSQL)", () => {
    before(async () => {
      ({ db, db2, close } = await freshDbPair());
    });
    after(() => close());

    it("a fast-check holding the beneficiary FOR SHARE, then counting its event on the subscription: both commit", async () => {
      const { owner, beneficiaryId, quote } = await readyToAccept();
      let accepted: Promise<unknown> | undefined;
      // The fast-check's order (lib/compliance/fast-check/fast-check-job.ts): the beneficiary shared, then its event.
      await db2.transaction(async (tx) => {
        await tx.select({ id: beneficiaries.id }).from(beneficiaries).where(eq(beneficiaries.id, beneficiaryId)).for("share");
        accepted = accept(owner, quote);
        accepted.catch(() => {}); // awaited below; a deadlock would reject it or this transaction
        await sleep(HOLD_MS);
        await countEvent(tx, owner.subscriptionId);
      });
      const result = (await accepted) as { transferStatus: string };
      assert.equal(result.transferStatus, "registered");
    });

    it("a confirmation holding its customer's lock, then counting its event on the subscription: both commit", async () => {
      const { owner, quote } = await readyToAccept();
      const { confirmTransfer } = await import("@/lib/payments/transfers/confirm");
      let accepted: Promise<unknown> | undefined;
      await db2.transaction(async (tx) => {
        // confirmTransfer's own lock: it locks the customer, then finds no such transfer; the
        // transaction stays open with the lock held.
        await assert.rejects(
          confirmTransfer(tx, {
            subscriptionId: owner.subscriptionId,
            customerId: owner.customerId,
            transferId: "trf_missing",
            deviceAssertion: "x.y.z",
            now: clock.now(),
          }),
          { code: "transfer.notFound" },
        );
        accepted = accept(owner, quote);
        accepted.catch(() => {});
        await sleep(HOLD_MS);
        await countEvent(tx, owner.subscriptionId);
      });
      const result = (await accepted) as { transferStatus: string };
      assert.equal(result.transferStatus, "registered");
    });
  });
}
