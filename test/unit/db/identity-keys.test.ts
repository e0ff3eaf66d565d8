/**
 * Migration 0015: identity keys stored with the old matching form are recomputed once
 * with the new one, so a new profile of the same person links to the earlier record again.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { customers, jobs } from "@/db/schema";
import { recomputeIdentityKeys } from "@/lib/identity/customers/identity-key-job";
import { identityKeyOf } from "@/lib/identity/customers/profile";
import { freshDb } from "../../support/db";

let db: Db;
let close: () => Promise<void>;
before(async () => ({ db, close } = await freshDb()));
after(() => close());

const profile = { firstName: "Łukasz", lastName: "Błaszczykowski", dateOfBirth: "1985-12-14", nationality: "POL" };
// The old form turned letters without a decomposition ("Ł", "ł") into spaces.
const OLD_KEY = "ukasz|b aszczykowski|1985-12-14|POL";

test("the migration starts one recompute; a customer with an old-form key gets the new key", async () => {
  const [started] = await db.select().from(jobs).where(eq(jobs.kind, "customers.recomputeIdentityKeys"));
  assert.deepEqual(started?.payload, { afterId: null });

  const newKey = identityKeyOf(profile);
  assert.notEqual(newKey, OLD_KEY);
  const updatedAt = new Date("2026-01-01T00:00:00Z");
  await db.insert(customers).values([
    { id: "cus_oldkey", profile, identityKey: OLD_KEY, createdAt: updatedAt, updatedAt },
    { id: "cus_nokey", profile: null, identityKey: null, createdAt: updatedAt, updatedAt },
  ]);
  const run = () =>
    db.transaction((tx) =>
      recomputeIdentityKeys.run!(tx, { payload: { afterId: null }, jobId: "job_t", attempt: 1, now: new Date(), signal: new AbortController().signal }),
    );
  await run();
  const [row] = await db.select().from(customers).where(eq(customers.id, "cus_oldkey"));
  assert.equal(row.identityKey, newKey);
  assert.equal(row.updatedAt.getTime(), updatedAt.getTime());
  const [none] = await db.select().from(customers).where(eq(customers.id, "cus_nokey"));
  assert.equal(none.identityKey, null);
  // A second run finds nothing to change.
  await run();
  assert.equal((await db.select().from(customers).where(eq(customers.id, "cus_oldkey")))[0].identityKey, newKey);
});
