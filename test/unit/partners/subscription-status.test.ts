/**
 * A partner's admin sets the relationship status through the subscription machine: suspended and
 * restored, then closed; a closed relationship is refused any further change and keeps its status.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { subscriptions } from "@/db/schema";
import { setSubscriptionStatus } from "@/lib/partners";
import { clock } from "@/lib/platform/clock";
import { DomainError } from "@/lib/platform/errors";
import { freshDb } from "../../support/db";
import { newSubscription } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;
before(async () => {
  ({ db, close } = await freshDb());
});
after(() => close());

test("suspend, restore and close a relationship; a closed one never reopens", async () => {
  const { subscriptionId } = await newSubscription(db);
  const set = (status: "active" | "spended" | "closed") => db.transaction((tx) => setSubscriptionStatus(tx, subscriptionId, status, clock.now()));
  const status = async () => (await db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)))[0]?.status;

  assert.deepEqual(await set("spended"), { before: "active", after: "spended" });
  assert.deepEqual(await set("active"), { before: "spended", after: "active" });
  assert.deepEqual(await set("closed"), { before: "active", after: "closed" });
  await assert.rejects(set("active"), (err) => err instanceof DomainError && err.code === "customer.statusInvalid");
  assert.equal(await status(), "closed");
});
