import { and, asc, eq, gt, isNotNull } from "drizzle-orm";
import { z } from "zod";
import { customers } from "@/db/schema";
import { defineJob } from "@/lib/platform/jobs/define";
import { identityKeyOf } from "./profile";
import { effectsOf } from "@/lib/platform/unit-of-work";

/** Customers per run: one batch is locked and rewritten, then the next batch is enqueued. */
const BATCH = 200;

type IdentityFields = Parameters<typeof identityKeyOf>[0];

/**
 * Recomputes stored identity keys after a change of the matching form (keys written
 * before it folded letters such as "ł" or "ß" differently, so a new profile of the same person would
 * not be linked to the earlier record and would not inherit its HIT). Walks customers with a
 * profile in id order, one locked batch per run, and rewrites the key only where it differs; a
 * repeated batch changes nothing. The key is derived data, not profile data: updatedAt stays.
 * Started once by migration 0015.
 */
export const recomputeIdentityKeys = defineJob({
  kind: "customers.recomputeIdentityKeys",
  schema: z.object({ afterId: z.string().nullable() }),
  run: async (tx, { payload, now }) => {
    const rows = await tx
      .select({ id: customers.id, profile: customers.profile, identityKey: customers.identityKey })
      .from(customers)
      .where(and(isNotNull(customers.profile), payload.afterId ? gt(customers.id, payload.afterId) : undefined))
      .orderBy(asc(customers.id))
      .limit(BATCH)
      .for("no key update"); // the key never changes: foreign key checks need not wait
    for (const row of rows) {
      const identityKey = identityKeyOf(row.profile as unknown as IdentityFields);
      if (identityKey !== row.identityKey) await tx.update(customers).set({ identityKey }).where(eq(customers.id, row.id));
    }
    if (rows.length === BATCH) {
      const last = rows[rows.length - 1].id;
      await effectsOf(tx).jobs.schedule(
        "customers.recomputeIdentityKeys",
        { afterId: last },
        { runAt: now, dedupeKey: `customers.recomputeIdentityKeys:${last}` },
      );
    }
  },
});
