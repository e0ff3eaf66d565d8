/**
 * A transfer created at quote acceptance is inserted at commit with the unit's effects, and its row
 * is answered from the values given (lib/payments/transfers/records.ts insertRegisteredTransfer):
 * that answer must be the row the database then holds, column for column (a column default or a
 * column the database normalises, such as a numeric's scale, would make them differ).
 * PGlite, or PostgreSQL with TEST_DB_URL.
 */
import assert from "node:assert/strict";
import { after, before, it } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { transfers } from "@/db/schema";
import { clock } from "@/lib/platform/clock";
import { freshDb } from "../../support/db";
import { insertTestTransfer, newSubscription } from "../../support/fixtures";

let db: Db;
let close: () => Promise<void>;

before(async () => {
  ({ db, close } = await freshDb());
});

after(() => close());

it("the row insertRegisteredTransfer answers in a unit of work is the row written at commit", async () => {
  const { inUnit } = await import("@/lib/platform/unit-of-work");
  const owner = await newSubscription(db);
  const answered = await inUnit(({ tx, now }) => insertTestTransfer(tx, owner, now), { db, now: clock.now() });
  const [stored] = await db.select().from(transfers).where(eq(transfers.id, answered.id));
  assert.ok(stored, "written at commit");
  assert.deepEqual(answered, stored);
});
